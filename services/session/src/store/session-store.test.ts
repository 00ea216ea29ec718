import { AuthError } from "@auth/errors";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { SessionState } from "@auth/proto/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LoginFailures } from "./login-failures.js";
import { expiredTokenMemoryMs, SessionStore } from "./session-store.js";

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
      const { token } = await sessions.create(start);
      expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    });

    it("stores the token's hash, never the token", async () => {
      const { token, session } = await sessions.create(start);
      const stored = await kv.get(`session:${session.sessionId}`);
      expect(stored).not.toContain(token);
      expect(JSON.parse(stored ?? "{}").tokenHash).toBe(session.tokenHash);
    });

    it("gives a pre-authorization state 15 minutes", async () => {
      const { session } = await sessions.create(start);
      expect(session.expiresAt - now).toBe(15 * minute);
    });
  });

  describe("introspect", () => {
    it("finds an active session", async () => {
      const { token } = await sessions.create(start);
      const result = await sessions.introspect(token);
      expect(result.status).toBe("active");
      expect(result.status === "active" && result.session).toMatchObject(start);
    });

    it("answers invalid for an unknown or malformed token", async () => {
      const { token } = await sessions.create(start);
      const forged = `${token.slice(0, 22)}${"A".repeat(42)}`;
      expect((await sessions.introspect(forged)).status).toBe("invalid");
      expect((await sessions.introspect("not-a-token")).status).toBe("invalid");
      expect((await sessions.introspect("")).status).toBe("invalid");
    });

    it("answers expired past the lifetime, for at least a day", async () => {
      const { token } = await sessions.create(start);
      now += 15 * minute;
      expect((await sessions.introspect(token)).status).toBe("expired");
      now += expiredTokenMemoryMs - minute;
      expect((await sessions.introspect(token)).status).toBe("expired");
    });
  });

  describe("advance", () => {
    it("rotates the token: the new one works, the old one is invalid", async () => {
      const first = await sessions.create(start);
      const next = await sessions.advance(first.token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, {
        profileMnemocode: "P-1",
      });
      expect(next.token).not.toBe(first.token);
      expect(next.session).toMatchObject({ state: SessionState.AUTHORIZED, profileMnemocode: "P-1" });
      expect(next.session.sessionId).toBe(first.session.sessionId);
      expect((await sessions.introspect(first.token)).status).toBe("invalid");
      expect((await sessions.introspect(next.token)).status).toBe("active");
    });

    it("carries the password-change flag until a move changes it", async () => {
      const first = await sessions.create({ ...start, passwordChangeRequired: true });
      const otp = await sessions.advance(first.token, SessionState.CHECKPASSWORD, SessionState.CHECKOTP);
      expect(otp.session.passwordChangeRequired).toBe(true);
      const set = await sessions.advance(otp.token, SessionState.CHECKOTP, SessionState.SETPASSWORD, {
        passwordChangeRequired: false,
      });
      expect(set.session.passwordChangeRequired).toBe(false);
    });

    it("gives an authorized session 24 hours", async () => {
      const first = await sessions.create(start);
      const next = await sessions.advance(first.token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED);
      expect(next.session.expiresAt - now).toBe(24 * 60 * minute);
    });

    it("refuses a session in another state with auth.session.invalid", async () => {
      const { token } = await sessions.create(start);
      expect(await codeOf(sessions.advance(token, SessionState.CHECKOTP, SessionState.AUTHORIZED))).toBe(
        "auth.session.invalid",
      );
    });

    it("refuses an expired token with auth.token.expired", async () => {
      const { token } = await sessions.create(start);
      now += 16 * minute;
      expect(await codeOf(sessions.advance(token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED))).toBe(
        "auth.token.expired",
      );
    });

    it("refuses an unknown token with auth.token.invalid", async () => {
      expect(
        await codeOf(sessions.advance("A".repeat(64), SessionState.CHECKPASSWORD, SessionState.AUTHORIZED)),
      ).toBe("auth.token.invalid");
    });

    it("lets only one of many parallel calls with the same token through", async () => {
      const { token } = await sessions.create(start);
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          codeOf(sessions.advance(token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED)),
        ),
      );
      expect(results.filter((r) => r === "resolved")).toHaveLength(1);
      expect(results.filter((r) => r === "auth.token.invalid")).toHaveLength(9);
    });
  });

  describe("lifetimes", () => {
    it("take the company's lifetime when one is given", async () => {
      const created = await sessions.create({ ...start, lifetimeSeconds: 60 });
      expect(created.session.expiresAt - now).toBe(60_000);
      const moved = await sessions.advance(
        created.token,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        {
          lifetimeSeconds: 3_600,
        },
      );
      expect(moved.session.expiresAt - now).toBe(3_600_000);
    });
  });

  describe("listUser", () => {
    it("lists the user's known sessions, oldest first, and not others'", async () => {
      const first = await sessions.create(start);
      now += 1;
      const second = await sessions.create({ ...start, state: SessionState.CHECKOTP });
      await sessions.create({ ...start, userId: "u2" });
      const listed = await sessions.listUser("c1", "u1");
      expect(listed.map((s) => s.sessionId)).toEqual([first.session.sessionId, second.session.sessionId]);
      await sessions.revoke(first.token);
      expect((await sessions.listUser("c1", "u1")).map((s) => s.sessionId)).toEqual([
        second.session.sessionId,
      ]);
    });
  });

  describe("revoke", () => {
    it("invalidates the token in any state", async () => {
      const { token } = await sessions.create(start);
      expect(await sessions.revoke(token)).toBe(true);
      expect((await sessions.introspect(token)).status).toBe("invalid");
      expect(await sessions.revoke(token)).toBe(false);
    });

    it("revokes every session of one user and no other", async () => {
      const a = await sessions.create(start);
      const b = await sessions.create({ ...start, state: SessionState.CHECKOTP });
      const other = await sessions.create({ ...start, userId: "u2" });
      expect(await sessions.revokeUser("c1", "u1")).toBe(2);
      expect((await sessions.introspect(a.token)).status).toBe("invalid");
      expect((await sessions.introspect(b.token)).status).toBe("invalid");
      expect((await sessions.introspect(other.token)).status).toBe("active");
    });

    it("revokes a user's session after it was advanced", async () => {
      const first = await sessions.create(start);
      const next = await sessions.advance(first.token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED);
      await sessions.revokeUser("c1", "u1");
      expect((await sessions.introspect(next.token)).status).toBe("invalid");
    });
  });
});

describe.each(keyValueKinds())("login failures on $name", (kind) => {
  let kv: KeyValueStore;
  let failures: LoginFailures;
  beforeEach(async () => {
    kv = await kind.open();
    failures = new LoginFailures(kv);
  });
  afterEach(async () => {
    await kv.close();
  });

  it("counts failures per company and login ID", async () => {
    await failures.record("c1", "ann", 900);
    const second = await failures.record("c1", "ann", 900);
    expect(second.failures).toBe(2);
    expect(second.retryAfterSeconds).toBe(900);
    expect((await failures.read("c2", "ann")).failures).toBe(0);
    expect((await failures.read("c1", "bob")).failures).toBe(0);
  });

  it("counts every one of many parallel failures", async () => {
    await Promise.all(Array.from({ length: 25 }, () => failures.record("c1", "ann", 900)));
    expect((await failures.read("c1", "ann")).failures).toBe(25);
  });

  it("forgets failures on reset", async () => {
    await failures.record("c1", "ann", 900);
    await failures.reset("c1", "ann");
    expect(await failures.read("c1", "ann")).toEqual({ failures: 0, retryAfterSeconds: 0 });
  });

  it("keeps no login ID in the store's keys", async () => {
    await failures.record("c1", "ann@example.com", 900);
    expect(await kv.get("login-failures:c1:ann@example.com")).toBeNull();
  });
});
