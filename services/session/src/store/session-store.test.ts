import { createHash } from "node:crypto";
import { AuthError } from "@auth/errors";
import type { OriginOf } from "@auth/events";
import { systemOrigin } from "@auth/events";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { SessionState } from "@auth/proto/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CheckBudget,
  passwordFailuresInARun,
  type Reservation,
  type ReserveOutcome,
  type SecretKind,
  type Subject,
} from "./check-budget.js";
import type { Ending } from "./session-events.js";
import {
  expiredTokenMemoryMs,
  idleEndOf,
  lastSeenIntervalMs,
  type SessionRecord,
  SessionStore,
  shownUserAgent,
} from "./session-store.js";

/** Whose writes these are: their events are security-events.test.ts's business. */
const bySystem: OriginOf = () => systemOrigin;
const ended: Ending = { reason: "logout", originOf: bySystem };

const minute = 60_000;
const lifetimes = {
  of: (state: SessionState) => (state === SessionState.AUTHORIZED ? 24 * 60 * minute : 15 * minute),
};
const start = {
  companyId: "c1",
  userId: "u1",
  state: SessionState.CHECKPASSWORD,
  loginId: "ann@example.com",
  passwordChangeRequired: false,
};
/** A right password check of the user, as the check budget reports it: what a session may be authorized on. */
const passwordOf = (userId = "u1") => ({
  rightCheck: { userId, factor: { kind: "password" as const, at: 1 } },
});
const password = passwordOf();

/** The hash a user's failure keys hold: of the user and the credential generation (`user:generation`). */
const userHash = (userAndGeneration: string) =>
  createHash("sha256").update(`user:${userAndGeneration}`).digest("base64url");

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof AuthError ? error.code : String(error)),
  );

describe.each(keyValueKinds())("session store on $name", (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let sessions: SessionStore;

  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    sessions = new SessionStore(kv, { now: () => now }, lifetimes);
  });
  afterEach(async () => {
    await kv.close();
  });

  describe("create", () => {
    it("issues an opaque base64url token of more than 256 bits", async () => {
      const { token } = await sessions.create(start, bySystem);
      expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    });

    it("stores the token's hash, never the token", async () => {
      const { token, session } = await sessions.create(start, bySystem);
      const stored = await kv.get(`session:${session.sessionId}`);
      expect(stored).not.toContain(token);
      expect(JSON.parse(stored ?? "{}").tokenHash).toBe(session.tokenHash);
    });

    it("gives a pre-authorization state 15 minutes", async () => {
      const { session } = await sessions.create(start, bySystem);
      expect(session.expiresAt - now).toBe(15 * minute);
    });
  });

  describe("introspect", () => {
    it("finds an active session", async () => {
      const { token } = await sessions.create(start, bySystem);
      const result = await sessions.introspect(token);
      expect(result.status).toBe("active");
      expect(result.status === "active" && result.session).toMatchObject(start);
    });

    it("answers invalid for an unknown or malformed token", async () => {
      const { token } = await sessions.create(start, bySystem);
      const forged = `${token.slice(0, 22)}${"A".repeat(42)}`;
      expect((await sessions.introspect(forged)).status).toBe("invalid");
      expect((await sessions.introspect("not-a-token")).status).toBe("invalid");
      expect((await sessions.introspect("")).status).toBe("invalid");
    });

    it("answers expired past the lifetime, for at least a day", async () => {
      const { token } = await sessions.create(start, bySystem);
      now += 15 * minute;
      expect((await sessions.introspect(token)).status).toBe("expired");
      now += expiredTokenMemoryMs - minute;
      expect((await sessions.introspect(token)).status).toBe("expired");
    });
  });

  describe("create with a lock-out read in its step", () => {
    const refused = async () => new AuthError("auth.restricted", { detail: "locked out" });
    const lockOut = { key: "failures", ceiling: 2, refused };

    it("writes the session, its list and its recorded writes while the counter is below its ceiling, and answers it", async () => {
      await kv.increment("failures", minute);
      const recorded = () => [{ op: "exchange" as const, key: "device", value: "1", ttlMs: minute }];
      const created = await sessions.create({ ...start, lockOut, recorded }, bySystem);
      expect(created.counter?.count).toBe(1);
      expect(created.recorded).toEqual([false]);
      expect((await sessions.introspect(created.token)).status).toBe("active");
    });

    it("writes nothing once the counter is at its ceiling, and throws what refused makes of it", async () => {
      await kv.increment("failures", minute);
      await kv.increment("failures", minute);
      const recorded = () => [{ op: "exchange" as const, key: "device", value: "1", ttlMs: minute }];
      expect(await codeOf(sessions.create({ ...start, lockOut, recorded }, bySystem))).toBe(
        "auth.restricted",
      );
      expect(await kv.get("device")).toBeNull();
      expect(await kv.setMembers(`user-sessions:${start.companyId}:${start.userId}`)).toEqual([]);
    });
  });

  describe("create with writes recorded", () => {
    it("makes them in the step that writes the session, and answers them", async () => {
      const recorded = () => [{ op: "exchange" as const, key: "device", value: "1", ttlMs: minute }];
      const authorized = { ...start, state: SessionState.AUTHORIZED, ...password, recorded };
      expect((await sessions.create(authorized, bySystem)).recorded).toEqual([false]);
      expect((await sessions.create(authorized, bySystem)).recorded).toEqual([true]);
      expect((await sessions.create(start, bySystem)).recorded).toEqual([]);
    });
  });

  describe("advance", () => {
    /** A right check's report as the check budget reads it (PendingRight): `check:<id>` taken, `forgotten:<id>` after. */
    const reportOf = (id: string, read: Promise<void> = Promise.resolve()) => ({
      report: async () => {
        await read;
        return {
          right: password.rightCheck,
          take: { op: "compareAndSet" as const, key: `check:${id}`, expected: id, next: null, ttlMs: 0 },
          rest: [{ op: "delete" as const, key: `forgotten:${id}` }],
        };
      },
    });
    /** Settles once two moves have read the session: parallel moves that read before either wrote. */
    const bothSessionsRead = () => {
      let reads = 0;
      return new Promise<void>((resolve) => {
        const getEachNaming = kv.getEachNaming.bind(kv);
        kv.getEachNaming = async (keys, named) => {
          const values = await getEachNaming(keys, named);
          reads += 1;
          if (reads === 2) resolve();
          return values;
        };
      });
    };
    const reportsOf = async (...ids: string[]) => {
      for (const id of ids)
        await kv.writeInOrder([
          { op: "set", key: `check:${id}`, value: id, ttlMs: minute },
          { op: "set", key: `forgotten:${id}`, value: "1", ttlMs: minute },
        ]);
    };

    it("makes the report of the right check it rests on in its own step: the check taken, then the move, then the report's rest", async () => {
      const { token } = await sessions.create(start, bySystem);
      await reportsOf("a");
      const moved = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        reportOf("a"),
        bySystem,
      );
      expect(moved.session.factors).toEqual([password.rightCheck.factor]);
      expect(await kv.getEach(["check:a", "forgotten:a"])).toEqual([null, null]);
    });

    it("of parallel moves that read the session before either wrote, the loser skips its move but makes its report", async () => {
      const { token } = await sessions.create(start, bySystem);
      await reportsOf("a", "b");
      const read = bothSessionsRead();
      const moves = await Promise.all(
        ["a", "b"].map((id) =>
          codeOf(
            sessions.advance(
              token,
              SessionState.CHECKPASSWORD,
              SessionState.AUTHORIZED,
              reportOf(id, read),
              bySystem,
            ),
          ),
        ),
      );
      expect(moves.sort()).toEqual(["auth.token.invalid", "resolved"]);
      expect(await kv.getEach(["check:a", "check:b", "forgotten:a", "forgotten:b"])).toEqual([
        null,
        null,
        null,
        null,
      ]);
    });

    it("makes the writes recorded with a move only when it moves the session, and answers them", async () => {
      const { token } = await sessions.create(start, bySystem);
      await reportsOf("a", "b");
      const read = bothSessionsRead();
      const moves = await Promise.allSettled(
        ["a", "b"].map((id) =>
          sessions.advance(
            token,
            SessionState.CHECKPASSWORD,
            SessionState.AUTHORIZED,
            {
              ...reportOf(id, read),
              recorded: (next) => [
                { op: "exchange", key: `device:${id}`, value: next.sessionId, ttlMs: minute },
                { op: "exchange", key: "user", value: id, ttlMs: minute },
              ],
            },
            bySystem,
          ),
        ),
      );
      const moved = moves.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
      expect(moved.map(({ recorded }) => recorded)).toEqual([[false, false]]);
      const devices = await kv.getEach(["device:a", "device:b"]);
      expect(devices.filter((device) => device !== null)).toEqual([moved[0]?.session.sessionId]);
    });

    it("moves nothing on a check another report took first: auth.token.invalid", async () => {
      const { token } = await sessions.create(start, bySystem);
      await reportsOf("a");
      await kv.set("check:a", "taken meanwhile", minute);
      expect(
        await codeOf(
          sessions.advance(
            token,
            SessionState.CHECKPASSWORD,
            SessionState.AUTHORIZED,
            reportOf("a"),
            bySystem,
          ),
        ),
      ).toBe("auth.token.invalid");
      expect(await kv.get("forgotten:a")).toBe("1");
      expect((await sessions.introspect(token)).status).toBe("active");
    });

    it("rotates the token: the new one works, the old one is invalid", async () => {
      const first = await sessions.create(start, bySystem);
      const next = await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        {
          profileMnemocode: "P-1",
          ...password,
        },
        bySystem,
      );
      expect(next.token).not.toBe(first.token);
      expect(next.session).toMatchObject({ state: SessionState.AUTHORIZED, profileMnemocode: "P-1" });
      expect(next.session.sessionId).toBe(first.session.sessionId);
      expect((await sessions.introspect(first.token)).status).toBe("invalid");
      expect((await sessions.introspect(next.token)).status).toBe("active");
    });

    it("answers a move made with a retry key again to the same token and retry key, while the session stays as it left it; no other", async () => {
      const first = await sessions.create(
        { ...start, state: SessionState.ACCEPTDISCLAIMERS, ...password },
        bySystem,
      );
      const move = [
        SessionState.ACCEPTDISCLAIMERS,
        SessionState.AUTHORIZED,
        { profileMnemocode: "P-1" },
      ] as const;
      const moved = await sessions.advance(first.token, ...move, bySystem, "first");
      const again = await sessions.advance(first.token, ...move, bySystem, "first");
      expect(again.token).toBe(moved.token);
      expect(again.session).toMatchObject({
        sessionId: moved.session.sessionId,
        state: SessionState.AUTHORIZED,
      });
      expect((await sessions.introspect(moved.token)).status).toBe("active");
      expect((await sessions.introspect(first.token)).status).toBe("invalid");
      expect(await codeOf(sessions.advance(first.token, ...move, bySystem, "second"))).toBe(
        "auth.token.invalid",
      );
      expect(await codeOf(sessions.advance(first.token, ...move, bySystem))).toBe("auth.token.invalid");
      const forged = `${first.token.slice(0, 22)}${"A".repeat(first.token.length - 22)}`;
      expect(await codeOf(sessions.advance(forged, ...move, bySystem, "first"))).toBe("auth.token.invalid");
      // The store holds the new token sealed, never in plain.
      expect(await kv.get(`session:${moved.session.sessionId}`)).not.toContain(moved.token);
      // Once the session moves on, or ends, the first move is answered no more.
      await sessions.revoke(moved.token, bySystem);
      expect(await codeOf(sessions.advance(first.token, ...move, bySystem, "first"))).toBe(
        "auth.token.invalid",
      );
    });

    it("answers a move again only until the session moves on", async () => {
      const first = await sessions.create({ ...start, ...password }, bySystem);
      await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        {},
        bySystem,
        "first",
      );
      const otp = await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        {},
        bySystem,
        "first",
      );
      await sessions.advance(otp.token, SessionState.CHECKOTP, SessionState.AUTHORIZED, {}, bySystem);
      expect(
        await codeOf(
          sessions.advance(
            first.token,
            SessionState.CHECKPASSWORD,
            SessionState.CHECKOTP,
            {},
            bySystem,
            "first",
          ),
        ),
      ).toBe("auth.token.invalid");
    });

    it("carries the password-change flag until a move changes it", async () => {
      const first = await sessions.create({ ...start, passwordChangeRequired: true }, bySystem);
      const otp = await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        {},
        bySystem,
      );
      expect(otp.session.passwordChangeRequired).toBe(true);
      const set = await sessions.advance(
        otp.token,
        SessionState.CHECKOTP,
        SessionState.SETPASSWORD,
        {
          passwordChangeRequired: false,
          ...password,
        },
        bySystem,
      );
      expect(set.session.passwordChangeRequired).toBe(false);
    });

    it("gives an authorized session 24 hours", async () => {
      const first = await sessions.create(start, bySystem);
      const next = await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        password,
        bySystem,
      );
      expect(next.session.expiresAt - now).toBe(24 * 60 * minute);
    });

    it("refuses a session in another state with auth.session.invalid", async () => {
      const { token } = await sessions.create(start, bySystem);
      expect(
        await codeOf(sessions.advance(token, SessionState.CHECKOTP, SessionState.AUTHORIZED, {}, bySystem)),
      ).toBe("auth.session.invalid");
    });

    it("refuses an expired token with auth.token.expired", async () => {
      const { token } = await sessions.create(start, bySystem);
      now += 16 * minute;
      expect(
        await codeOf(
          sessions.advance(token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, {}, bySystem),
        ),
      ).toBe("auth.token.expired");
    });

    it("refuses an unknown token with auth.token.invalid", async () => {
      expect(
        await codeOf(
          sessions.advance("A".repeat(64), SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, {}, bySystem),
        ),
      ).toBe("auth.token.invalid");
    });

    it("lets only one of many parallel calls with the same token through", async () => {
      const { token } = await sessions.create(start, bySystem);
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          codeOf(
            sessions.advance(token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, password, bySystem),
          ),
        ),
      );
      expect(results.filter((r) => r === "resolved")).toHaveLength(1);
      expect(results.filter((r) => r === "auth.token.invalid")).toHaveLength(9);
    });
  });

  describe('a session authorized on proof the session service recorded (docs/security.md, "Trust between the services")', () => {
    /** A right control answer: a check the session service recorded, but no login factor. */
    const controlAnswer = { rightCheck: { userId: "u1" } };
    const stateOf = async (token: string) => {
      const found = await sessions.introspect(token);
      return found.status === "active" ? found.session.state : found.status;
    };

    it.each([
      ["authorized", SessionState.AUTHORIZED],
      ["setpassword", SessionState.SETPASSWORD],
    ])(
      "refuses to start a session in %s without a factor, with auth.session.invalid: none is created",
      async (_, state) => {
        for (const proof of [{}, controlAnswer])
          expect(await codeOf(sessions.create({ ...start, state, ...proof }, bySystem))).toBe(
            "auth.session.invalid",
          );
        expect(await sessions.listUser("c1", "u1")).toEqual([]);
        expect(await codeOf(sessions.create({ ...start, state, ...password }, bySystem))).toBe("resolved");
      },
    );

    it.each([
      ["checkpassword", "authorized", SessionState.CHECKPASSWORD, SessionState.AUTHORIZED],
      ["checkotp", "authorized", SessionState.CHECKOTP, SessionState.AUTHORIZED],
      ["checkotp", "setpassword", SessionState.CHECKOTP, SessionState.SETPASSWORD],
      ["acceptdisclaimers", "authorized", SessionState.ACCEPTDISCLAIMERS, SessionState.AUTHORIZED],
    ])(
      "refuses to move a session with no factor from %s to %s, with auth.session.invalid: it stays as it was",
      async (_from, _to, from, to) => {
        const { token } = await sessions.create({ ...start, state: from }, bySystem);
        for (const proof of [{}, controlAnswer])
          expect(await codeOf(sessions.advance(token, from, to, proof, bySystem))).toBe(
            "auth.session.invalid",
          );
        expect(await stateOf(token)).toBe(from);
        expect(await codeOf(sessions.advance(token, from, to, password, bySystem))).toBe("resolved");
      },
    );

    it("moves a session whose earlier move rested on a factor on without another", async () => {
      const first = await sessions.create(start, bySystem);
      const otp = await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        password,
        bySystem,
      );
      const set = await sessions.advance(
        otp.token,
        SessionState.CHECKOTP,
        SessionState.SETPASSWORD,
        {},
        bySystem,
      );
      const authorized = await sessions.advance(
        set.token,
        SessionState.SETPASSWORD,
        SessionState.AUTHORIZED,
        {},
        bySystem,
      );
      expect(authorized.session.factors).toEqual([password.rightCheck.factor]);
    });

    it("never authorizes a recovery session, whatever its factors: it moves within recovery only", async () => {
      const { token } = await sessions.create({ ...start, state: SessionState.RECOVERY_CHECKOTP }, bySystem);
      const sms = { rightCheck: { userId: "u1", factor: { kind: "smsCode" as const, at: 1 } } };
      const set = await sessions.advance(
        token,
        SessionState.RECOVERY_CHECKOTP,
        SessionState.RECOVERY_SETPASSWORD,
        sms,
        bySystem,
      );
      for (const to of [SessionState.AUTHORIZED, SessionState.SETPASSWORD, SessionState.CHECKOTP]) {
        expect(
          await codeOf(
            sessions.advance(set.token, SessionState.RECOVERY_SETPASSWORD, to, password, bySystem),
          ),
        ).toBe("auth.session.invalid");
      }
      expect(await stateOf(set.token)).toBe(SessionState.RECOVERY_SETPASSWORD);
    });
  });

  describe('a password-free login\'s session (docs/decisions.md, "Passkeys")', () => {
    const discovery = { ...start, userId: "", loginId: "" };
    /** A right passkey check of the user, as the check budget reports it with identity's proof. */
    const passkeyOf = (userVerified: boolean, credentialGeneration = "") => ({
      rightCheck: {
        userId: "u1",
        factor: { kind: "passkey" as const, at: 1, userVerified, backedUp: true },
        credentialGeneration,
      },
    });
    const found = async (token: string) => {
      const introspected = await sessions.introspect(token);
      return introspected.status === "active" ? introspected.session : introspected.status;
    };

    it("starts in checkpassword with no user: in no user's sessions, of no credential generation", async () => {
      const { token, session } = await sessions.create(discovery, bySystem);
      expect(session).toMatchObject({ userId: "", loginId: "", credentialGeneration: "" });
      expect(await found(token)).toMatchObject({ userId: "", state: SessionState.CHECKPASSWORD });
      expect(await kv.setMembers("user-sessions:c1:")).toEqual([]);
    });

    it("starts nowhere else, and on no check, with auth.session.invalid", async () => {
      for (const state of [SessionState.CHECKOTP, SessionState.AUTHORIZED, SessionState.RECOVERY_CHECKOTP])
        expect(await codeOf(sessions.create({ ...discovery, state }, bySystem))).toBe("auth.session.invalid");
      for (const proof of [password, passkeyOf(true)])
        expect(await codeOf(sessions.create({ ...discovery, ...proof }, bySystem))).toBe(
          "auth.session.invalid",
        );
      expect(await codeOf(sessions.create({ ...discovery, credentialGeneration: "" }, bySystem))).toBe(
        "auth.session.invalid",
      );
    });

    it.each([
      ["authorized", SessionState.AUTHORIZED],
      ["setpassword", SessionState.SETPASSWORD],
      ["acceptdisclaimers", SessionState.ACCEPTDISCLAIMERS],
    ])(
      "moves to %s on a user-verified passkey and takes its user: the user's generation, in the user's sessions",
      async (_, to) => {
        await sessions.revokeUser("c1", "u1", ended);
        const generation = await sessions.generationOf("c1", "u1");
        const { token } = await sessions.create(discovery, bySystem);
        const moved = await sessions.advance(
          token,
          SessionState.CHECKPASSWORD,
          to,
          passkeyOf(true, generation),
          bySystem,
        );
        expect(moved.session).toMatchObject({
          userId: "u1",
          loginId: "",
          state: to,
          credentialGeneration: generation,
          factors: [passkeyOf(true).rightCheck.factor],
        });
        expect((await sessions.listUser("c1", "u1")).map((listed) => listed.sessionId)).toEqual([
          moved.session.sessionId,
        ]);
        // The user's: revokeUser ends it as any other.
        await sessions.revokeUser("c1", "u1", ended);
        expect(await found(moved.token)).toBe("invalid");
      },
    );

    it("moves on nothing else, with auth.session.invalid: not without a check, nor on a passkey that did not verify the user, a password, another factor", async () => {
      const { token } = await sessions.create(discovery, bySystem);
      const app = { rightCheck: { userId: "u1", factor: { kind: "appCode" as const, at: 1 } } };
      for (const proof of [{}, passkeyOf(false), password, app, { rightCheck: { userId: "u1" } }]) {
        for (const to of [SessionState.AUTHORIZED, SessionState.CHECKOTP])
          expect(await codeOf(sessions.advance(token, SessionState.CHECKPASSWORD, to, proof, bySystem))).toBe(
            "auth.session.invalid",
          );
      }
      expect(await found(token)).toMatchObject({ userId: "", state: SessionState.CHECKPASSWORD });
      expect(await sessions.listUser("c1", "u1")).toEqual([]);
    });

    it("refuses a passkey checked before the user's credentials changed, with auth.credentials.invalid: nothing moves", async () => {
      const checkedWith = await sessions.generationOf("c1", "u1");
      await sessions.revokeUser("c1", "u1", ended);
      const { token } = await sessions.create(discovery, bySystem);
      expect(
        await codeOf(
          sessions.advance(
            token,
            SessionState.CHECKPASSWORD,
            SessionState.AUTHORIZED,
            passkeyOf(true, checkedWith),
            bySystem,
          ),
        ),
      ).toBe("auth.credentials.invalid");
      expect(await found(token)).toMatchObject({ userId: "", state: SessionState.CHECKPASSWORD });
    });

    it("answers a move made with a retry key again, the user taken", async () => {
      const { token } = await sessions.create(discovery, bySystem);
      const moved = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        passkeyOf(true),
        bySystem,
        "retry-1",
      );
      const again = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        passkeyOf(true),
        bySystem,
        "retry-1",
      );
      expect(again).toEqual(moved);
    });

    it("is revoked and ended as any session, and lists nowhere", async () => {
      const first = await sessions.create(discovery, bySystem);
      expect(await sessions.revoke(first.token, bySystem)).toBe(true);
      expect(await found(first.token)).toBe("invalid");
      const second = await sessions.create(discovery, bySystem);
      await sessions.end(second.session.sessionId, ended);
      expect(await found(second.token)).toBe("invalid");
      const third = await sessions.create(discovery, bySystem);
      expect(await codeOf(sessions.listOwn(third.token))).toBe("auth.session.invalid");
      expect(await codeOf(sessions.endOwn(third.token, { others: true }, bySystem))).toBe(
        "auth.session.invalid",
      );
      expect(await codeOf(sessions.claimCredentialChange(third.token, bySystem))).toBe(
        "auth.session.invalid",
      );
    });
  });

  describe("lifetimes", () => {
    it("take the company's lifetime when one is given", async () => {
      const created = await sessions.create({ ...start, lifetimeSeconds: 60 }, bySystem);
      expect(created.session.expiresAt - now).toBe(60_000);
      const moved = await sessions.advance(
        created.token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        {
          lifetimeSeconds: 3_600,
          ...password,
        },
        bySystem,
      );
      expect(moved.session.expiresAt - now).toBe(3_600_000);
    });
  });

  describe("session limits (docs/security.md, Session lifetimes)", () => {
    const limited = { ...start, absoluteLifetimeSeconds: 12 * 3600, idleTimeoutSeconds: 30 * 60 };
    const authorize = async (token: string, limits = {}) =>
      (
        await sessions.advance(
          token,
          SessionState.CHECKPASSWORD,
          SessionState.AUTHORIZED,
          {
            ...limits,
            ...password,
          },
          bySystem,
        )
      ).token;

    it("ends a session unused for the inactivity timeout, and keeps one in use", async () => {
      const token = await authorize((await sessions.create(limited, bySystem)).token);
      for (let i = 0; i < 4; i++) {
        now += 20 * minute;
        expect((await sessions.introspect(token)).status).toBe("active");
      }
      now += 30 * minute;
      expect((await sessions.introspect(token)).status).toBe("expired");
      expect(await codeOf(sessions.listOwn(token))).toBe("auth.token.expired");
    });

    it("ends a session at its absolute lifetime from its start, though in use and its token younger", async () => {
      const { token: first } = await sessions.create(limited, bySystem);
      now += 10 * minute;
      const token = await authorize(first);
      for (let elapsed = 10; elapsed < 12 * 60 - 20; elapsed += 20) {
        now += 20 * minute;
        expect((await sessions.introspect(token)).status).toBe("active");
      }
      now += 20 * minute;
      expect((await sessions.introspect(token)).status).toBe("expired");
    });

    it("caps the token's lifetime at the absolute one, and reports both deadlines", async () => {
      const { token, session } = await sessions.create(limited, bySystem);
      const authorized = await sessions.introspect(await authorize(token));
      expect(authorized.status === "active" && authorized.session).toMatchObject({
        expiresAt: session.createdAt + 12 * 3600_000,
        absoluteExpiresAt: session.createdAt + 12 * 3600_000,
      });
      expect(authorized.status === "active" && idleEndOf(authorized.session)).toBe(now + 30 * minute);
    });

    it("takes the limits at the move to authorized when the start had none", async () => {
      const { token } = await sessions.create(start, bySystem);
      const authorized = await authorize(token, { idleTimeoutSeconds: 60 });
      now += 61_000;
      expect((await sessions.introspect(authorized)).status).toBe("expired");
    });

    it("records a use at most once a minute", async () => {
      const token = await authorize((await sessions.create(limited, bySystem)).token);
      const seenAt = async () => {
        const found = await sessions.introspect(token);
        return found.status === "active" ? found.session.lastSeenAt : undefined;
      };
      const authorizedAt = now;
      now += lastSeenIntervalMs - 1;
      expect(await seenAt()).toBe(authorizedAt);
      now += 1;
      expect(await seenAt()).toBe(now);
      const recorded = now;
      now += 1_000;
      expect(await seenAt()).toBe(recorded);
    });

    it("keeps no more of a user agent than can be shown", () => {
      expect(shownUserAgent("Mozilla/5.0\u0000\r\n\u202eX")).toBe("Mozilla/5.0X");
      expect(shownUserAgent("a".repeat(1_000))).toHaveLength(256);
    });
  });

  describe("a user's own sessions", () => {
    const authorized = async (userId = "u1") => {
      const { token } = await sessions.create(
        {
          ...start,
          userId,
          userAgent: "Firefox",
          clientAddress: "192.0.2.7",
        },
        bySystem,
      );
      return sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        passwordOf(userId),
        bySystem,
      );
    };

    it("lists the active sessions of the token's user with their client, the token's own among them", async () => {
      const mine = await authorized();
      now += 1;
      const other = await authorized();
      await authorized("u2");
      const { token: ended } = await authorized();
      await sessions.revoke(ended, bySystem);
      // A login under way (anyone may start one with the login ID) is not listed.
      await sessions.create({ ...start, userAgent: "Call +1 555 0100 now" }, bySystem);
      const { current, sessions: listed } = await sessions.listOwn(mine.token);
      expect(current.sessionId).toBe(mine.session.sessionId);
      expect(listed.map((record) => record.sessionId)).toEqual([
        mine.session.sessionId,
        other.session.sessionId,
      ]);
      expect(listed[0]).toMatchObject({ userAgent: "Firefox", clientAddress: "192.0.2.7" });
    });

    it("ends one session of the user; another user's is answered as an unknown one", async () => {
      const mine = await authorized();
      const other = await authorized();
      const stranger = await authorized("u2");
      expect(await sessions.endOwn(mine.token, { sessionId: other.session.sessionId }, bySystem)).toBe(1);
      expect((await sessions.introspect(other.token)).status).toBe("invalid");
      expect(
        await codeOf(sessions.endOwn(mine.token, { sessionId: other.session.sessionId }, bySystem)),
      ).toBe("auth.session.notfound");
      expect(
        await codeOf(sessions.endOwn(mine.token, { sessionId: stranger.session.sessionId }, bySystem)),
      ).toBe("auth.session.notfound");
      expect((await sessions.introspect(stranger.token)).status).toBe("active");
    });

    it("ends every other session of the user and keeps the caller's", async () => {
      const mine = await authorized();
      const others = [await authorized(), await authorized()];
      const stranger = await authorized("u2");
      expect(await sessions.endOwn(mine.token, { others: true }, bySystem)).toBe(2);
      for (const other of others) expect((await sessions.introspect(other.token)).status).toBe("invalid");
      expect((await sessions.introspect(mine.token)).status).toBe("active");
      expect((await sessions.introspect(stranger.token)).status).toBe("active");
    });

    it("is for an authorized session only", async () => {
      const { token } = await sessions.create(start, bySystem);
      expect(await codeOf(sessions.listOwn(token))).toBe("auth.session.invalid");
      expect(await codeOf(sessions.endOwn(token, { others: true }, bySystem))).toBe("auth.session.invalid");
      expect(await codeOf(sessions.listOwn("A".repeat(64)))).toBe("auth.token.invalid");
    });
  });

  describe('the session cap (endOldest, docs/decisions.md "Session cap")', () => {
    const capped: Ending = { reason: "session_cap", originOf: bySystem };
    /** A session authorized as it starts, or (moved) as it moves on from checkpassword. */
    const authorize = async (moved = false, userId = "u1") => {
      if (!moved)
        return sessions.create(
          { ...start, userId, state: SessionState.AUTHORIZED, ...passwordOf(userId) },
          bySystem,
        );
      const { token } = await sessions.create({ ...start, userId }, bySystem);
      return sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        passwordOf(userId),
        bySystem,
      );
    };
    const active = async () =>
      (await sessions.listUser("c1", "u1")).filter((record) => record.state === SessionState.AUTHORIZED);

    it("records when a session became authorized, as it starts or moves so", async () => {
      const created = await authorize();
      const { token, session: waiting } = await sessions.create(start, bySystem);
      expect(waiting.authorizedAt).toBeUndefined();
      now += 5_000;
      const moved = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        password,
        bySystem,
      );
      expect(created.session.authorizedAt).toBe(created.session.createdAt);
      expect(moved.session.authorizedAt).toBe(now);
    });

    it("ends the oldest authorized sessions beyond the cap, by authorization time, not start", async () => {
      const { token } = await sessions.create(start, bySystem);
      now += 1;
      const second = await authorize();
      now += 1;
      // Started first, authorized last.
      const last = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        password,
        bySystem,
      );
      const waiting = await sessions.create(start, bySystem);
      const stranger = await authorize(false, "u2");
      expect(await sessions.endOldest(last.session, 1, capped)).toBe(1);
      expect((await sessions.introspect(second.token)).status).toBe("invalid");
      expect((await sessions.introspect(last.token)).status).toBe("active");
      // Neither a login under way nor another user's session counts.
      expect((await sessions.introspect(waiting.token)).status).toBe("active");
      expect((await sessions.introspect(stranger.token)).status).toBe("active");
    });

    it("ends none at or below the cap", async () => {
      await authorize();
      const newest = await authorize();
      expect(await sessions.endOldest(newest.session, 2, capped)).toBe(0);
      expect(await active()).toHaveLength(2);
    });

    it("tells sessions authorized in one millisecond apart by their ids", async () => {
      const made = [await authorize(), await authorize(), await authorize()];
      const byId = made.map(({ session }) => session.sessionId).sort();
      await sessions.endOldest(made[0]?.session as SessionRecord, 1, capped);
      expect((await active()).map((record) => record.sessionId)).toEqual([byId[2]]);
    });

    it.each([
      ["started authorized", false],
      ["moved to authorized", true],
    ])(
      "leaves exactly the newest cap of parallel authorizations, each ending decided from what it lists (%s)",
      async (_, moved) => {
        const cap = 3;
        const made = await Promise.all(
          Array.from({ length: 12 }, async (_, index) => {
            // Some in one millisecond, most not.
            if (index % 3 === 0) now += 1;
            const authorized = await authorize(moved);
            await sessions.endOldest(authorized.session, cap, capped);
            return authorized.session;
          }),
        );
        const newest = made
          .sort(
            (a, b) => (a.authorizedAt ?? 0) - (b.authorizedAt ?? 0) || (a.sessionId < b.sessionId ? -1 : 1),
          )
          .slice(-cap)
          .map((record) => record.sessionId);
        expect((await active()).map((record) => record.sessionId).sort()).toEqual(newest.sort());
      },
    );
  });

  describe("listUser", () => {
    it("lists the user's known sessions, oldest first, and not others'", async () => {
      const first = await sessions.create(start, bySystem);
      now += 1;
      const second = await sessions.create({ ...start, state: SessionState.CHECKOTP }, bySystem);
      await sessions.create({ ...start, userId: "u2" }, bySystem);
      const listed = await sessions.listUser("c1", "u1");
      expect(listed.map((s) => s.sessionId)).toEqual([first.session.sessionId, second.session.sessionId]);
      await sessions.revoke(first.token, bySystem);
      expect((await sessions.listUser("c1", "u1")).map((s) => s.sessionId)).toEqual([
        second.session.sessionId,
      ]);
    });
  });

  describe("revoke", () => {
    it("invalidates the token in any state", async () => {
      const { token } = await sessions.create(start, bySystem);
      expect(await sessions.revoke(token, bySystem)).toBe(true);
      expect((await sessions.introspect(token)).status).toBe("invalid");
      expect(await sessions.revoke(token, bySystem)).toBe(false);
    });

    it("remembers the request that revoked a session: the same token and retry key are told revoked again, no other", async () => {
      const { token } = await sessions.create(start, bySystem);
      const other = await sessions.create(start, bySystem);
      expect(await sessions.revoke(token, bySystem, "first")).toBe(true);
      expect((await sessions.introspect(token)).status).toBe("invalid");
      expect(await sessions.revoke(token, bySystem, "first")).toBe(true);
      expect(await sessions.revoke(token, bySystem, "second")).toBe(false);
      expect(await sessions.revoke(token, bySystem)).toBe(false);
      expect(await sessions.revoke(other.token, bySystem, "first")).toBe(true);
      const forged = `${other.token.slice(0, 22)}${"A".repeat(other.token.length - 22)}`;
      expect(await sessions.revoke(forged, bySystem, "first")).toBe(false);
    });

    it("forgets, without a retry key, who revoked the session", async () => {
      const { token } = await sessions.create(start, bySystem);
      expect(await sessions.revoke(token, bySystem)).toBe(true);
      expect(await sessions.revoke(token, bySystem, "first")).toBe(false);
    });

    it("remembers, with a password change's retry key, that the change ended the session it claimed, and no other", async () => {
      const recovery = await sessions.create(
        { ...start, state: SessionState.RECOVERY_SETPASSWORD },
        bySystem,
      );
      await sessions.claimCredentialChange(recovery.token, bySystem, "change");
      const later = await sessions.create(start, bySystem);
      expect(await sessions.revokeUser("c1", "u1", ended, "change")).toBe(2);
      expect((await sessions.introspect(recovery.token)).status).toBe("invalid");
      expect(await sessions.revoke(recovery.token, bySystem, "change")).toBe(true);
      expect(await sessions.revoke(recovery.token, bySystem, "another")).toBe(false);
      expect(await sessions.revoke(later.token, bySystem, "change")).toBe(false);
    });

    it("forgets, without the change's retry key, which request ended the sessions", async () => {
      const recovery = await sessions.create(
        { ...start, state: SessionState.RECOVERY_SETPASSWORD },
        bySystem,
      );
      await sessions.claimCredentialChange(recovery.token, bySystem, "change");
      await sessions.revokeUser("c1", "u1", ended);
      expect(await sessions.revoke(recovery.token, bySystem, "change")).toBe(false);
    });

    it("revokes every session of one user and no other", async () => {
      const a = await sessions.create(start, bySystem);
      const b = await sessions.create({ ...start, state: SessionState.CHECKOTP }, bySystem);
      const other = await sessions.create({ ...start, userId: "u2" }, bySystem);
      expect(await sessions.revokeUser("c1", "u1", ended)).toBe(2);
      expect((await sessions.introspect(a.token)).status).toBe("invalid");
      expect((await sessions.introspect(b.token)).status).toBe("invalid");
      expect((await sessions.introspect(other.token)).status).toBe("active");
    });

    it("revokes a user's session after it was advanced", async () => {
      const first = await sessions.create(start, bySystem);
      const next = await sessions.advance(
        first.token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        password,
        bySystem,
      );
      await sessions.revokeUser("c1", "u1", ended);
      expect((await sessions.introspect(next.token)).status).toBe("invalid");
    });
  });

  describe("the user's credential generation", () => {
    const setpassword = { ...start, state: SessionState.SETPASSWORD, ...password };

    it("ends with revokeUser a session started on a secret checked before, and a stale one is never created", async () => {
      const checkedWith = await sessions.generationOf("c1", "u1");
      await sessions.revokeUser("c1", "u1", ended);
      expect(await codeOf(sessions.create({ ...start, credentialGeneration: checkedWith }, bySystem))).toBe(
        "auth.credentials.invalid",
      );
      const fresh = await sessions.create(
        {
          ...start,
          credentialGeneration: await sessions.generationOf("c1", "u1"),
        },
        bySystem,
      );
      expect((await sessions.introspect(fresh.token)).status).toBe("active");
    });

    it("claimCredentialChange leaves the claiming session its user's only one, in every state", async () => {
      const authorized = await sessions.create(
        { ...start, state: SessionState.AUTHORIZED, ...password },
        bySystem,
      );
      const other = await sessions.create(setpassword, bySystem);
      const claiming = await sessions.create(setpassword, bySystem);
      const someoneElse = await sessions.create({ ...start, userId: "u2" }, bySystem);
      await sessions.claimCredentialChange(claiming.token, bySystem);
      expect((await sessions.introspect(claiming.token)).status).toBe("active");
      expect((await sessions.introspect(authorized.token)).status).toBe("invalid");
      expect((await sessions.introspect(other.token)).status).toBe("invalid");
      expect((await sessions.introspect(someoneElse.token)).status).toBe("active");
      expect(await codeOf(sessions.claimCredentialChange(other.token, bySystem))).toBe("auth.token.invalid");
    });

    it("lets one of many sessions that claim at once win", async () => {
      const claiming = await Promise.all(
        Array.from({ length: 10 }, () => sessions.create(setpassword, bySystem)),
      );
      const outcomes = await Promise.all(
        claiming.map(({ token }) => codeOf(sessions.claimCredentialChange(token, bySystem))),
      );
      expect(outcomes.filter((outcome) => outcome === "resolved")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === "auth.token.invalid")).toHaveLength(9);
      const alive = await Promise.all(claiming.map(({ token }) => sessions.introspect(token)));
      expect(alive.filter((found) => found.status === "active")).toHaveLength(1);
    });

    it("ends, when the change is finished, the sessions that started while it was under way", async () => {
      const claiming = await sessions.create(setpassword, bySystem);
      await sessions.claimCredentialChange(claiming.token, bySystem);
      const meanwhile = await sessions.create(
        { ...start, state: SessionState.AUTHORIZED, ...password },
        bySystem,
      );
      const finished = await sessions.advance(
        claiming.token,
        SessionState.SETPASSWORD,
        SessionState.AUTHORIZED,
        {
          renewCredentialGeneration: true,
        },
        bySystem,
      );
      expect((await sessions.introspect(finished.token)).status).toBe("active");
      expect((await sessions.introspect(meanwhile.token)).status).toBe("invalid");
      expect((await sessions.listUser("c1", "u1")).map((session) => session.sessionId)).toEqual([
        finished.session.sessionId,
      ]);
    });

    describe("a claim of one token", () => {
      const recovery = { ...start, state: SessionState.RECOVERY_SETPASSWORD };
      const signedIn = { ...start, state: SessionState.AUTHORIZED, ...password };

      it.each([
        ["setpassword", setpassword],
        ["recovery-setpassword", recovery],
        ["authorized", signedIn],
      ])(
        "lets one of many parallel claims of a session in %s through, and refuses every later one",
        async (_state, session) => {
          const { token } = await sessions.create(session, bySystem);
          const outcomes = await Promise.all(
            Array.from({ length: 10 }, (_, index) =>
              codeOf(sessions.claimCredentialChange(token, bySystem, `key-${index}`)),
            ),
          );
          expect(outcomes.filter((outcome) => outcome === "resolved")).toHaveLength(1);
          expect(outcomes.filter((outcome) => outcome === "auth.token.invalid")).toHaveLength(9);
          expect(await codeOf(sessions.claimCredentialChange(token, bySystem))).toBe("auth.token.invalid");
          expect((await sessions.introspect(token)).status).toBe("active");
        },
      );

      it("resumes for the claim's own retry key, and no other", async () => {
        const { token } = await sessions.create(recovery, bySystem);
        expect(await sessions.claimCredentialChange(token, bySystem, "first")).toEqual({
          resumed: false,
          ended: 0,
        });
        const found = await sessions.introspect(token);
        expect(found.status === "active" && found.session.changeClaim).toEqual({
          retryKey: "first",
          ended: 0,
        });
        expect(await sessions.claimCredentialChange(token, bySystem, "first")).toEqual({
          resumed: true,
          ended: 0,
        });
        expect(await codeOf(sessions.claimCredentialChange(token, bySystem, "second"))).toBe(
          "auth.token.invalid",
        );
        expect(await codeOf(sessions.claimCredentialChange(token, bySystem))).toBe("auth.token.invalid");
      });

      it("counts the other sessions it ended, and tells the same count to the request that resumes it", async () => {
        await Promise.all([sessions.create(signedIn, bySystem), sessions.create(start, bySystem)]);
        const { token } = await sessions.create(signedIn, bySystem);
        expect(await sessions.claimCredentialChange(token, bySystem, "first")).toEqual({
          resumed: false,
          ended: 2,
        });
        expect(await sessions.claimCredentialChange(token, bySystem, "first")).toEqual({
          resumed: true,
          ended: 2,
        });
      });

      it("refuses a session in any state but setpassword, recovery-setpassword and authorized with auth.session.invalid", async () => {
        for (const state of [
          SessionState.CHECKPASSWORD,
          SessionState.CHECKOTP,
          SessionState.RECOVERY_CHECKOTP,
        ]) {
          const { token } = await sessions.create({ ...start, state }, bySystem);
          expect(await codeOf(sessions.claimCredentialChange(token, bySystem)), String(state)).toBe(
            "auth.session.invalid",
          );
          expect((await sessions.introspect(token)).status).toBe("active");
        }
      });

      it.each([
        ["setpassword", setpassword, true],
        ["recovery-setpassword", recovery, false],
        ["authorized", signedIn, true],
      ])(
        "tells whose change a session in %s may make, whether it checked the password, and its claim from the claim until it moves on",
        async (_, session, passwordChecked) => {
          const { token } = await sessions.create(session, bySystem);
          const change = { companyId: "c1", userId: "u1", state: session.state, passwordChecked };
          expect(await sessions.credentialChangeOf(token)).toEqual({ ...change, claimId: undefined });
          await sessions.claimCredentialChange(token, bySystem, "first");
          const claimed = await sessions.credentialChangeOf(token);
          expect(claimed).toEqual({ ...change, claimId: expect.any(String) });
          expect(claimed?.claimId).not.toBe("");
          expect(await sessions.credentialChangeOf("A".repeat(64))).toBeUndefined();
          now += lifetimes.of(session.state);
          expect(await sessions.credentialChangeOf(token)).toBeUndefined();
        },
      );

      it("tells no change once the claimed session moved on or ended", async () => {
        const { token } = await sessions.create(setpassword, bySystem);
        await sessions.claimCredentialChange(token, bySystem);
        const moved = await sessions.advance(
          token,
          SessionState.SETPASSWORD,
          SessionState.AUTHORIZED,
          {
            renewCredentialGeneration: true,
          },
          bySystem,
        );
        expect(await sessions.credentialChangeOf(token)).toBeUndefined();
        expect((await sessions.credentialChangeOf(moved.token))?.claimId).toBeUndefined();
        const recovering = await sessions.create(recovery, bySystem);
        await sessions.claimCredentialChange(recovering.token, bySystem);
        await sessions.revokeUser("c1", "u1", ended);
        expect(await sessions.credentialChangeOf(recovering.token)).toBeUndefined();
      });

      it("without a retry key can be made once only", async () => {
        const { token } = await sessions.create(recovery, bySystem);
        expect(await sessions.claimCredentialChange(token, bySystem)).toEqual({ resumed: false, ended: 0 });
        expect(await codeOf(sessions.claimCredentialChange(token, bySystem))).toBe("auth.token.invalid");
      });

      it("ends when the session moves on: the authorized session carries no claim", async () => {
        const { token } = await sessions.create(setpassword, bySystem);
        await sessions.claimCredentialChange(token, bySystem, "first");
        const finished = await sessions.advance(
          token,
          SessionState.SETPASSWORD,
          SessionState.AUTHORIZED,
          {
            renewCredentialGeneration: true,
          },
          bySystem,
        );
        expect(finished.session.changeClaim).toBeUndefined();
        expect(await codeOf(sessions.claimCredentialChange(token, bySystem, "first"))).toBe(
          "auth.token.invalid",
        );
      });
    });

    it("refuses to finish a change another session took over", async () => {
      const first = await sessions.create(setpassword, bySystem);
      await sessions.claimCredentialChange(first.token, bySystem);
      await sessions.revokeUser("c1", "u1", ended);
      expect(
        await codeOf(
          sessions.advance(
            first.token,
            SessionState.SETPASSWORD,
            SessionState.AUTHORIZED,
            {
              renewCredentialGeneration: true,
            },
            bySystem,
          ),
        ),
      ).toBe("auth.token.invalid");
    });
  });
});

describe.each(keyValueKinds())("the budget of secret checks on $name", (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let budget: CheckBudget;
  const policy = { captchaAfterFailures: 3, lockoutAfterFailures: 10, failureWindowSeconds: 900 };
  const ann = { userId: "u-ann" };
  const holder = (credentialGeneration = "") => ({ companyId: "c1", subject: ann, credentialGeneration });
  const check = (secret: SecretKind, captchaPassed = false, credentialGeneration = ""): Reservation => ({
    ...holder(credentialGeneration),
    kind: secret,
    captchaPassed,
  });
  const password = (captchaPassed = false, credentialGeneration = "") =>
    check("password", captchaPassed, credentialGeneration);
  const secondFactors = ["smsCode", "appCode", "backupCode", "passkey"] as const;
  const everyKind = ["password", ...secondFactors, "controlAnswer"] as const;
  /** The failures Ann's budget of a kind counts now. */
  const failuresOf = async (secret: SecretKind, credentialGeneration = "") =>
    (await kv.readCounter(`check-failures:c1:${secret}:${userHash(`u-ann:${credentialGeneration}`)}`)).count;
  const failuresOfEveryKind = async () =>
    Object.fromEntries(
      await Promise.all(everyKind.map(async (secret) => [secret, await failuresOf(secret)])),
    );
  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    budget = new CheckBudget(kv, { now: () => now });
  });
  afterEach(async () => {
    await kv.close();
  });

  const outcomes = (results: ReserveOutcome[]) =>
    results.reduce<Record<string, number>>((counts, result) => {
      counts[result.outcome] = (counts[result.outcome] ?? 0) + 1;
      return counts;
    }, {});
  /** What identity's verified assertion of a user-verified, synced passkey proved. */
  const proof = { userVerified: true, backedUp: true };
  /** Reserves a check and reports it (a right passkey with identity's proof); the reservation's outcome. */
  const checked = async (reservation: Reservation, result: "right" | "wrong") => {
    const reserved = await budget.reserve(reservation, policy);
    if (reserved.outcome !== "allowed") return reserved.outcome;
    if (reservation.kind === "passkey" && result === "right")
      await budget.recordPasskeyProof("c1", reserved.checkId, proof);
    await budget.report(reserved.checkId, result, systemOrigin);
    return reserved.outcome;
  };
  /** Fails a check of the kind `count` times (passwords with a captcha). */
  const fail = async (secret: SecretKind, count: number) => {
    for (let i = 0; i < count; i++) await checked(check(secret, true), "wrong");
  };

  it("gives a burst of 50 passwords without a captcha 3 checks, and asks the rest for one", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => budget.reserve(password(), policy)));
    expect(outcomes(results)).toEqual({ allowed: 3, captchaNeeded: 47 });
    expect(await budget.status(holder(), "password", policy)).toMatchObject({
      lockedOut: false,
      captchaRequired: true,
    });
  });

  it("gives a burst of 50 passwords with a captcha 10 checks in all, then locks out until the window ends", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => budget.reserve(password(true), policy)),
    );
    expect(outcomes(results)).toEqual({ allowed: 10, lockedOut: 40 });
    const refused = results.find((result) => result.outcome === "lockedOut");
    expect(refused).toMatchObject({ retryAfterSeconds: 900 });
    expect((await budget.status(holder(), "password", policy)).lockedOut).toBe(true);
  });

  it("forgets the failures on a right secret, keeps them on a wrong one, gives back an unchecked one", async () => {
    const first = await budget.reserve(password(), policy);
    const second = await budget.reserve(password(), policy);
    const third = await budget.reserve(password(), policy);
    if (first.outcome !== "allowed" || second.outcome !== "allowed" || third.outcome !== "allowed")
      throw new Error("not reserved");
    await budget.report(first.checkId, "wrong", systemOrigin);
    await budget.report(second.checkId, "unchecked", systemOrigin);
    // Two stay counted (the wrong one, and the third, not reported yet): one more check without a captcha.
    const fourth = await budget.reserve(password(), policy);
    expect(fourth.outcome).toBe("allowed");
    expect((await budget.reserve(password(), policy)).outcome).toBe("captchaNeeded");
    await budget.report(third.checkId, "right", systemOrigin);
    expect(await budget.status(holder(), "password", policy)).toEqual({
      lockedOut: false,
      retryAfterSeconds: 0,
      captchaRequired: false,
    });
    // A report comes once: a second changes nothing.
    await budget.report(first.checkId, "unchecked", systemOrigin);
    expect((await budget.reserve(password(), policy)).outcome).toBe("allowed");
  });

  it("tells that a wrong secret locked the subject out: the one that reached the count, once", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => budget.reserve(password(true), policy)),
    );
    const checkIds = results.flatMap((result) => (result.outcome === "allowed" ? [result.checkId] : []));
    expect(checkIds).toHaveLength(10);
    const reports = await Promise.all(
      checkIds.map((checkId) => budget.report(checkId, "wrong", systemOrigin)),
    );
    expect(reports.filter((report) => report.lockedOut)).toHaveLength(1);
    expect((await budget.reserve(password(true), policy)).outcome).toBe("lockedOut");
  });

  it("tells no lock-out when the last check before it proves right or is given back", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => budget.reserve(password(true), policy)),
    );
    const checkIds = results.flatMap((result) => (result.outcome === "allowed" ? [result.checkId] : []));
    const reports = await Promise.all(
      checkIds.map((checkId) => budget.report(checkId, "unchecked", systemOrigin)),
    );
    expect(reports.some((report) => report.lockedOut)).toBe(false);
  });

  it("keeps the budgets of users, login IDs and companies apart, with no login ID in the keys", async () => {
    await Promise.all(Array.from({ length: 10 }, () => budget.reserve(password(true), policy)));
    const lockedOut = async (companyId: string, subject: Subject) =>
      (await budget.status({ companyId, subject, credentialGeneration: "" }, "password", policy)).lockedOut;
    expect(await lockedOut("c1", ann)).toBe(true);
    expect(await lockedOut("c2", ann)).toBe(false);
    expect(await lockedOut("c1", { userId: "u-bob" })).toBe(false);
    expect(await lockedOut("c1", { loginId: "u-ann" })).toBe(false);
    await budget.reserve(
      {
        companyId: "c1",
        subject: { loginId: "ann@example.com" },
        kind: "password",
        captchaPassed: false,
        credentialGeneration: "",
      },
      policy,
    );
    for (const key of [
      "check-failures:c1:ann@example.com",
      "check-failures:c1:login:ann@example.com",
      "check-failures:c1:password:ann@example.com",
      "check-failures:c1:password:login:ann@example.com",
    ]) {
      expect((await kv.readCounter(key)).count).toBe(0);
    }
  });

  it("tells, of a right check, whose it was and the factor it proved: none for a control answer", async () => {
    const rightOf = async (reservation: Reservation) => {
      const reserved = await budget.reserve(reservation, policy);
      if (reserved.outcome !== "allowed") throw new Error("not reserved");
      return (await budget.report(reserved.checkId, "right", systemOrigin)).right;
    };
    expect(await rightOf(check("appCode"))).toEqual({
      userId: "u-ann",
      factor: { kind: "appCode", at: now },
    });
    expect(await rightOf(check("controlAnswer"))).toEqual({ userId: "u-ann" });
    const stranger = { companyId: "c1", subject: { loginId: "x@example.com" }, credentialGeneration: "" };
    expect(await rightOf({ ...stranger, kind: "password", captchaPassed: false })).toEqual({
      factor: { kind: "password", at: now },
    });
  });

  describe("a login a provider verified (recordFederatedLogin)", () => {
    it("is a right check of its user for one report, at the provider's time but never later than now", async () => {
      const checkId = await budget.recordFederatedLogin({
        companyId: "c1",
        userId: "u-ann",
        authenticatedAt: now - 60_000,
        multiFactor: true,
      });
      expect(await budget.report(checkId, "right", systemOrigin)).toEqual({
        right: { userId: "u-ann", factor: { kind: "federated", at: now - 60_000, multiFactor: true } },
      });
      expect(await budget.report(checkId, "right", systemOrigin)).toEqual({});
      const ahead = await budget.recordFederatedLogin({
        companyId: "c1",
        userId: "u-ann",
        authenticatedAt: now + 60_000,
        multiFactor: false,
      });
      expect((await budget.report(ahead, "right", systemOrigin)).right?.factor).toEqual({
        kind: "federated",
        at: now,
      });
    });
  });

  describe('a passkey\'s proof (recordPasskeyProof, docs/decisions.md "Passkeys")', () => {
    const reservePasskey = async (reservation: Reservation = check("passkey")) => {
      const reserved = await budget.reserve(reservation, policy);
      if (reserved.outcome !== "allowed") throw new Error("not reserved");
      return reserved.checkId;
    };

    it("makes a right passkey check prove the factor: when reserved, whether the user was verified, whether it is synced", async () => {
      for (const proven of [
        { userVerified: true, backedUp: false },
        { userVerified: false, backedUp: true },
      ]) {
        const checkId = await reservePasskey(check("passkey", false, "generation-2"));
        expect(await budget.recordPasskeyProof("c1", checkId, proven)).toBe(true);
        expect(await budget.report(checkId, "right", systemOrigin)).toEqual({
          right: {
            userId: "u-ann",
            factor: { kind: "passkey", at: now, ...proven },
            credentialGeneration: "generation-2",
          },
        });
      }
    });

    it("counts a passkey check reported right without identity's proof as wrong: no factor, the failure stays, nothing is forgotten", async () => {
      await fail("appCode", 2);
      const checkId = await reservePasskey();
      expect(await budget.report(checkId, "right", systemOrigin)).toEqual({});
      expect(await failuresOf("passkey")).toBe(1);
      expect(await failuresOf("appCode")).toBe(2);
    });

    it("tells the lock-out when the passkey check said right without a proof took the last failure", async () => {
      await fail("passkey", policy.lockoutAfterFailures - 1);
      const checkId = await reservePasskey();
      expect(await budget.report(checkId, "right", systemOrigin)).toEqual({
        lockedOut: expect.objectContaining({ companyId: "c1", userId: "u-ann", kind: "passkey" }),
      });
    });

    it("is recorded only on a reserved passkey check of the company, not yet reported nor proven", async () => {
      expect(await budget.recordPasskeyProof("c1", "no-such-check", proof)).toBe(false);
      const appCode = await budget.reserve(check("appCode"), policy);
      if (appCode.outcome !== "allowed") throw new Error("not reserved");
      expect(await budget.recordPasskeyProof("c1", appCode.checkId, proof)).toBe(false);
      const federated = await budget.recordFederatedLogin({
        companyId: "c1",
        userId: "u-ann",
        multiFactor: false,
      });
      expect(await budget.recordPasskeyProof("c1", federated, proof)).toBe(false);
      const passkey = await reservePasskey();
      expect(await budget.recordPasskeyProof("c2", passkey, proof)).toBe(false);
      expect(await budget.recordPasskeyProof("c1", passkey, { userVerified: false, backedUp: false })).toBe(
        true,
      );
      expect(await budget.recordPasskeyProof("c1", passkey, proof)).toBe(false);
      expect((await budget.report(passkey, "right", systemOrigin)).right?.factor).toEqual({
        kind: "passkey",
        at: now,
        userVerified: false,
        backedUp: false,
      });
      expect(await budget.recordPasskeyProof("c1", passkey, proof)).toBe(false);
    });

    it("is not recorded on a check past its lifetime, which stays counted as failed", async () => {
      const checkId = await reservePasskey();
      now += 10 * 60_000;
      expect(await budget.recordPasskeyProof("c1", checkId, proof)).toBe(false);
    });
  });

  describe('one budget per kind of secret (docs/security.md, "Guesses per hour at one user")', () => {
    it("gives parallel bursts of 50 checks of every kind exactly 10 each, and a captcha only to passwords", async () => {
      const bursts = await Promise.all(
        everyKind.map((secret) =>
          Promise.all(Array.from({ length: 50 }, () => budget.reserve(check(secret, true), policy))),
        ),
      );
      for (const burst of bursts) expect(outcomes(burst)).toEqual({ allowed: 10, lockedOut: 40 });
      expect(await failuresOfEveryKind()).toEqual({
        password: 10,
        smsCode: 10,
        appCode: 10,
        backupCode: 10,
        passkey: 10,
        controlAnswer: 10,
      });
      const withoutCaptcha = await Promise.all(
        secondFactors.map((secret) =>
          budget.reserve({ ...check(secret), subject: { userId: "u-bob" } }, policy),
        ),
      );
      expect(outcomes(withoutCaptcha)).toEqual({ allowed: secondFactors.length });
    });

    it.each(secondFactors)(
      "checks 10 of 60 rounds of (right password, wrong %s), then refuses it as locked out though every password is right",
      async (secret) => {
        const passwords: string[] = [];
        const seconds: string[] = [];
        for (let round = 0; round < 60; round++) {
          passwords.push(await checked(password(), "right"));
          seconds.push(await checked(check(secret), "wrong"));
        }
        expect(outcomes(passwords.map((outcome) => ({ outcome }) as ReserveOutcome))).toEqual({
          allowed: 60,
        });
        expect(seconds.slice(0, 10)).toEqual(Array(10).fill("allowed"));
        expect(seconds.slice(10)).toEqual(Array(50).fill("lockedOut"));
        expect(await failuresOf(secret)).toBe(10);
        expect(await budget.status(holder(), secret, policy)).toMatchObject({ lockedOut: true });
        expect(await budget.status(holder(), "password", policy)).toEqual({
          lockedOut: false,
          retryAfterSeconds: 0,
          captchaRequired: false,
        });
      },
    );

    it("a right password forgets the password's failures, no other kind's", async () => {
      for (const secret of everyKind) await fail(secret, 2);
      expect(await checked(password(), "right")).toBe("allowed");
      expect(await failuresOfEveryKind()).toEqual({
        password: 0,
        smsCode: 2,
        appCode: 2,
        backupCode: 2,
        passkey: 2,
        controlAnswer: 2,
      });
    });

    it.each(secondFactors)(
      "a right %s forgets the failures of every second factor, not the password's or the control answers'",
      async (secret) => {
        for (const failed of everyKind) await fail(failed, 2);
        expect(await checked(check(secret), "right")).toBe("allowed");
        expect(await failuresOfEveryKind()).toEqual({
          password: 2,
          smsCode: 0,
          appCode: 0,
          backupCode: 0,
          passkey: 0,
          controlAnswer: 2,
        });
      },
    );

    it("a right control answer forgets the control answers' failures, no other kind's", async () => {
      for (const secret of everyKind) await fail(secret, 2);
      expect(await checked(check("controlAnswer"), "right")).toBe("allowed");
      expect(await failuresOfEveryKind()).toEqual({
        password: 2,
        smsCode: 2,
        appCode: 2,
        backupCode: 2,
        passkey: 2,
        controlAnswer: 0,
      });
    });

    it("leaves the password's captcha and lock-out to passwords: second-factor failures touch neither", async () => {
      for (const secret of [...secondFactors, "controlAnswer"] as const) await fail(secret, 10);
      expect(await budget.status(holder(), "password", policy)).toEqual({
        lockedOut: false,
        retryAfterSeconds: 0,
        captchaRequired: false,
      });
      expect(await budget.reserve(password(), policy)).toMatchObject({
        outcome: "allowed",
        captchaRequired: false,
      });
      await fail("password", 3);
      expect(await budget.status(holder(), "appCode", policy)).toMatchObject({ captchaRequired: true });
    });

    it("starts fresh budgets of every kind with new credentials; a login ID's have no generation", async () => {
      for (const secret of everyKind) await fail(secret, 10);
      for (const secret of everyKind) {
        expect((await budget.reserve(check(secret, true), policy)).outcome).toBe("lockedOut");
        expect((await budget.reserve(check(secret, true, "generation-2"), policy)).outcome).toBe("allowed");
        expect((await budget.status(holder("generation-2"), secret, policy)).lockedOut).toBe(false);
      }
      const stranger = (credentialGeneration: string): Reservation => ({
        companyId: "c1",
        subject: { loginId: "x@example.com" },
        credentialGeneration,
        kind: "password",
        captchaPassed: true,
      });
      for (let i = 0; i < 10; i++) await checked(stranger(""), "wrong");
      expect((await budget.reserve(stranger("generation-2"), policy)).outcome).toBe("lockedOut");
    });

    it("forgets the failures of every kind at once (ForgetFailedChecks)", async () => {
      for (const secret of everyKind) await fail(secret, 10);
      await budget.forget(holder());
      expect(await failuresOfEveryKind()).toEqual({
        password: 0,
        smsCode: 0,
        appCode: 0,
        backupCode: 0,
        passkey: 0,
        controlAnswer: 0,
      });
      for (const secret of everyKind)
        expect((await budget.status(holder(), secret, policy)).lockedOut).toBe(false);
    });

    it("tells the lock-out once per filling of a kind's budget, and again once a right second factor emptied it", async () => {
      const fill = async () => {
        const results = await Promise.all(
          Array.from({ length: 12 }, () => budget.reserve(check("appCode"), policy)),
        );
        const reports = await Promise.all(
          results.flatMap((result) =>
            result.outcome === "allowed" ? [budget.report(result.checkId, "wrong", systemOrigin)] : [],
          ),
        );
        return reports.filter((report) => report.lockedOut);
      };
      const lockedOut = {
        lockedOut: expect.objectContaining({ companyId: "c1", userId: "u-ann", kind: "appCode" }),
      };
      expect(await fill()).toEqual([lockedOut]);
      expect(await fill()).toEqual([]);
      expect(await checked(check("smsCode"), "right")).toBe("allowed");
      expect(await fill()).toEqual([lockedOut]);
    });
  });

  describe("one check at a time per session", () => {
    const token = "A".repeat(64);

    it("gives one of 10 parallel takes of a token's turn, and none of the others", async () => {
      const turns = await Promise.all(Array.from({ length: 10 }, () => budget.takeTurn(token)));
      expect(turns.filter((turn) => turn !== undefined)).toHaveLength(1);
      expect(await budget.takeTurn("B".repeat(64))).toBeDefined();
    });

    it.each(["right", "wrong", "unchecked"] as const)(
      "lets the check reserved in the turn hold it until its report, %s",
      async (result) => {
        const turn = await budget.takeTurn(token);
        const reserved = await budget.reserve({ ...password(), turn }, policy);
        expect(reserved).toMatchObject({ outcome: "allowed", checkId: turn?.checkId });
        expect(await budget.takeTurn(token)).toBeUndefined();
        await budget.report(turn?.checkId ?? "", result, systemOrigin);
        expect(await budget.takeTurn(token)).toBeDefined();
      },
    );

    it("ends a turn only for its own check, not a later one's", async () => {
      const first = await budget.takeTurn(token);
      if (!first) throw new Error("no turn");
      await budget.endTurn(first);
      const second = await budget.takeTurn(token);
      await budget.endTurn(first);
      expect(second).toBeDefined();
      expect(await budget.takeTurn(token)).toBeUndefined();
    });
  });

  describe("a run of wrong passwords (NIST SP 800-63B-4 3.2.2)", () => {
    // Windows that never close in the test: only the run holds.
    const open = { captchaAfterFailures: 1_000, lockoutAfterFailures: 1_000, failureWindowSeconds: 900 };
    const reserveWrong = async (count: number) => {
      const results = await Promise.all(
        Array.from({ length: count }, () => budget.reserve(password(), open)),
      );
      await Promise.all(
        results.map((result) =>
          result.outcome === "allowed" ? budget.report(result.checkId, "wrong", systemOrigin) : {},
        ),
      );
      return outcomes(results);
    };

    it(`checks ${passwordFailuresInARun} of a burst of 150, and refuses the user's password after them whatever the window`, async () => {
      expect(await reserveWrong(150)).toEqual({ allowed: passwordFailuresInARun, lockedOut: 50 });
      const refused = await budget.reserve(password(), open);
      expect(refused.outcome).toBe("lockedOut");
      expect(refused).toMatchObject({ retryAfterSeconds: 365 * 24 * 60 * 60 });
      // The steps before a password, and recovery, are not held by the run.
      expect(await budget.status(holder(), "password", open)).toMatchObject({ lockedOut: false });
      // The window's failures are what they were: the refused ones spent nothing.
      expect(await failuresOf("password")).toBe(passwordFailuresInARun);
    });

    it("tells that the wrong password that filled the run locked the user out, once, until the run's end", async () => {
      const results = await Promise.all(
        Array.from({ length: passwordFailuresInARun }, () => budget.reserve(password(), open)),
      );
      const reports = await Promise.all(
        results.flatMap((result) =>
          result.outcome === "allowed" ? [budget.report(result.checkId, "wrong", systemOrigin)] : [],
        ),
      );
      const lockedOut = reports.flatMap((report) => (report.lockedOut ? [report.lockedOut] : []));
      expect(lockedOut).toEqual([
        { companyId: "c1", userId: "u-ann", kind: "password", until: expect.any(Number) },
      ]);
      // The run's lifetime from its first failure (Redis counts it down in its own time).
      const year = 365 * 24 * 60 * 60_000;
      expect(Math.abs((lockedOut[0]?.until ?? 0) - (now + year))).toBeLessThan(5_000);
    });

    it("leaves the user's other secrets to their windows, so that the second step and recovery stay open", async () => {
      await reserveWrong(passwordFailuresInARun);
      for (const secret of [...secondFactors, "controlAnswer"] as const)
        expect((await budget.reserve(check(secret), open)).outcome).toBe("allowed");
    });

    it("ends at a right password, and with the credentials: a new generation (a new password) starts a new run", async () => {
      await reserveWrong(passwordFailuresInARun - 1);
      const right = await budget.reserve(password(), open);
      if (right.outcome !== "allowed") throw new Error("not reserved");
      await budget.report(right.checkId, "right", systemOrigin);
      expect(await reserveWrong(passwordFailuresInARun)).toEqual({ allowed: passwordFailuresInARun });
      expect((await budget.reserve(password(), open)).outcome).toBe("lockedOut");
      expect((await budget.reserve(password(false, "generation-2"), open)).outcome).toBe("allowed");
    });

    it("gives back a check that compared nothing, and counts no password of an unknown login ID", async () => {
      const results = await Promise.all(
        Array.from({ length: passwordFailuresInARun }, () => budget.reserve(password(), open)),
      );
      await Promise.all(
        results.map((result) =>
          result.outcome === "allowed" ? budget.report(result.checkId, "unchecked", systemOrigin) : {},
        ),
      );
      expect((await budget.reserve(password(), open)).outcome).toBe("allowed");
      const stranger = {
        companyId: "c1",
        subject: { loginId: "x@example.com" },
        kind: "password",
        captchaPassed: false,
        credentialGeneration: "",
      } as const;
      const strangers = await Promise.all(Array.from({ length: 150 }, () => budget.reserve(stranger, open)));
      expect(outcomes(strangers)).toEqual({ allowed: 150 });
    });
  });

  describe("a recovery session's control answers", () => {
    const session = { sessionId: "s-1", ttlMs: 60_000 };
    const answer = () => budget.reserve({ ...check("controlAnswer"), session }, policy);

    it("are 3 of any burst; the rest are refused as spent", async () => {
      const results = await Promise.all(Array.from({ length: 12 }, answer));
      expect(outcomes(results)).toEqual({ allowed: 3, sessionSpent: 9 });
    });

    it("end the session with the third wrong one, and not before", async () => {
      const reserved = await Promise.all([answer(), answer(), answer()]);
      const ids = reserved.map((result) => (result.outcome === "allowed" ? result.checkId : ""));
      expect(await budget.report(ids[0] ?? "", "wrong", systemOrigin)).toEqual({});
      expect(await budget.report(ids[1] ?? "", "wrong", systemOrigin)).toEqual({});
      expect(await budget.report(ids[2] ?? "", "wrong", systemOrigin)).toEqual({ endSession: "s-1" });
    });

    it("a right one among them leaves the session to go on", async () => {
      const reserved = await Promise.all([answer(), answer(), answer()]);
      const ids = reserved.map((result) => (result.outcome === "allowed" ? result.checkId : ""));
      await budget.report(ids[0] ?? "", "wrong", systemOrigin);
      await budget.report(ids[1] ?? "", "right", systemOrigin);
      expect(await budget.report(ids[2] ?? "", "wrong", systemOrigin)).toEqual({});
    });

    it("while the control answers are locked out, count as wrong and end the session with the third", async () => {
      await Promise.all(Array.from({ length: 10 }, () => budget.reserve(check("controlAnswer"), policy)));
      const results = [await answer(), await answer(), await answer()];
      expect(results.map((result) => result.outcome)).toEqual(["lockedOut", "lockedOut", "lockedOut"]);
      expect(results[2]?.endSession).toBe("s-1");
      expect(results[1]?.endSession).toBeUndefined();
    });

    it("are not held by a locked-out password: recovery stays open", async () => {
      await fail("password", 10);
      expect((await answer()).outcome).toBe("allowed");
    });
  });
});
