import { AuthError } from "@auth/errors";
import type { OriginOf } from "@auth/events";
import { systemOrigin } from "@auth/events";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { PasskeyCeremony, SessionState } from "@auth/proto/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PasskeyChallenges } from "./passkey-challenges.js";
import { SessionStore } from "./session-store.js";

/** Whose writes these are: their events are security-events.test.ts's business. */
const bySystem: OriginOf = () => systemOrigin;

const minute = 60_000;
const start = {
  companyId: "c1",
  userId: "u1",
  state: SessionState.CHECKPASSWORD,
  loginId: "ann@example.com",
  passwordChangeRequired: false,
};
const password = { rightCheck: { userId: "u1", factor: { kind: "password" as const, at: 1 } } };
const { LOGIN, REGISTRATION } = PasskeyCeremony;

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof AuthError ? error.code : String(error)),
  );

describe.each(keyValueKinds())('passkey challenges on $name (docs/decisions.md, "Passkeys")', (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let sessions: SessionStore;
  let challenges: PasskeyChallenges;

  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    sessions = new SessionStore(kv, { now: () => now }, { of: () => 15 * minute });
    challenges = new PasskeyChallenges(kv, sessions);
  });
  afterEach(async () => {
    await kv.close();
  });

  const authorized = async () => {
    const { token } = await sessions.create(start, bySystem);
    return sessions.advance(token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, password, bySystem);
  };

  describe("issue", () => {
    it("answers 32 random bytes, base64url without padding, and the session", async () => {
      const { token, session } = await sessions.create(start, bySystem);
      const issued = await challenges.issue(token, LOGIN);
      expect(issued.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(issued.challenge, "base64url")).toHaveLength(32);
      expect(issued.session).toMatchObject({ sessionId: session.sessionId, companyId: "c1", userId: "u1" });
      expect((await challenges.issue(token, LOGIN)).challenge).not.toBe(issued.challenge);
    });

    it.each([
      ["checkpassword", SessionState.CHECKPASSWORD],
      ["checkotp", SessionState.CHECKOTP],
    ])("issues a login's in %s", async (_, state) => {
      const { token } = await sessions.create({ ...start, state }, bySystem);
      expect(await codeOf(challenges.issue(token, LOGIN))).toBe("resolved");
      expect(await codeOf(challenges.issue(token, REGISTRATION))).toBe("auth.session.invalid");
    });

    it("issues a registration's for an authorized session only", async () => {
      const { token } = await authorized();
      expect(await codeOf(challenges.issue(token, REGISTRATION))).toBe("resolved");
      expect(await codeOf(challenges.issue(token, LOGIN))).toBe("auth.session.invalid");
    });

    it.each([
      ["acceptdisclaimers", SessionState.ACCEPTDISCLAIMERS],
      ["recovery-checkotp", SessionState.RECOVERY_CHECKOTP],
      ["recovery-setpassword", SessionState.RECOVERY_SETPASSWORD],
    ])("issues none in %s, with auth.session.invalid", async (_, state) => {
      const { token } = await sessions.create({ ...start, state }, bySystem);
      for (const ceremony of [LOGIN, REGISTRATION] as const)
        expect(await codeOf(challenges.issue(token, ceremony))).toBe("auth.session.invalid");
    });

    it("issues a login's for a password-free login's session, which has no user", async () => {
      const { token } = await sessions.create({ ...start, userId: "", loginId: "" }, bySystem);
      expect((await challenges.issue(token, LOGIN)).session).toMatchObject({ userId: "" });
    });

    it("refuses an unknown token with auth.token.invalid, an expired one with auth.token.expired", async () => {
      expect(await codeOf(challenges.issue("A".repeat(64), LOGIN))).toBe("auth.token.invalid");
      const { token } = await sessions.create(start, bySystem);
      now += 15 * minute;
      expect(await codeOf(challenges.issue(token, LOGIN))).toBe("auth.token.expired");
    });
  });

  describe("take", () => {
    it("answers the session's challenge once, and then none: the session still", async () => {
      const { token, session } = await sessions.create(start, bySystem);
      const { challenge } = await challenges.issue(token, LOGIN);
      expect(await challenges.take(token, LOGIN)).toMatchObject({
        challenge,
        session: { sessionId: session.sessionId },
      });
      const again = await challenges.take(token, LOGIN);
      expect(again.challenge).toBeUndefined();
      expect(again.session).toMatchObject({ sessionId: session.sessionId, userId: "u1" });
    });

    it("gives one of 50 parallel takes of one challenge, and none of the others", async () => {
      const { token } = await sessions.create(start, bySystem);
      const { challenge } = await challenges.issue(token, LOGIN);
      const taken = await Promise.all(Array.from({ length: 50 }, () => challenges.take(token, LOGIN)));
      expect(taken.filter((one) => one.challenge !== undefined).map((one) => one.challenge)).toEqual([
        challenge,
      ]);
    });

    it("answers only the newest challenge of the session: a new issue replaces the old", async () => {
      const { token } = await sessions.create(start, bySystem);
      await challenges.issue(token, LOGIN);
      const newer = await challenges.issue(token, LOGIN);
      expect((await challenges.take(token, LOGIN)).challenge).toBe(newer.challenge);
    });

    it("answers none for another ceremony's challenge, which is gone with the take", async () => {
      const { token } = await authorized();
      await challenges.issue(token, REGISTRATION);
      expect((await challenges.take(token, LOGIN)).challenge).toBeUndefined();
      expect((await challenges.take(token, REGISTRATION)).challenge).toBeUndefined();
    });

    it("answers none once the session moved on from the state the challenge was issued in", async () => {
      const { token } = await sessions.create(start, bySystem);
      await challenges.issue(token, LOGIN);
      const moved = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        password,
        bySystem,
      );
      expect((await challenges.take(moved.token, LOGIN)).challenge).toBeUndefined();
    });

    it("answers none to another session's token, and leaves the challenge to its own", async () => {
      const own = await sessions.create(start, bySystem);
      const other = await sessions.create(start, bySystem);
      const { challenge } = await challenges.issue(own.token, LOGIN);
      expect((await challenges.take(other.token, LOGIN)).challenge).toBeUndefined();
      expect((await challenges.take(own.token, LOGIN)).challenge).toBe(challenge);
    });

    it("refuses an unknown or rotated token with auth.token.invalid, an expired one with auth.token.expired", async () => {
      const { token } = await sessions.create(start, bySystem);
      await challenges.issue(token, LOGIN);
      expect(await codeOf(challenges.take("A".repeat(64), LOGIN))).toBe("auth.token.invalid");
      const moved = await sessions.advance(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKPASSWORD,
        {},
        bySystem,
      );
      expect(await codeOf(challenges.take(token, LOGIN))).toBe("auth.token.invalid");
      now += 15 * minute;
      expect(await codeOf(challenges.take(moved.token, LOGIN))).toBe("auth.token.expired");
    });

    it("lives as long as the session: past its end, nothing answers it", async () => {
      const { token, session } = await sessions.create({ ...start, idleTimeoutSeconds: 60 }, bySystem);
      await challenges.issue(token, LOGIN);
      now += minute;
      expect(await codeOf(challenges.take(token, LOGIN))).toBe("auth.token.expired");
      if (kind.name === "in-process")
        expect(await kv.get(`passkey-challenge:${session.sessionId}`)).toBeNull();
    });
  });
});
