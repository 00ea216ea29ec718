import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  noticesTo,
  type TestCompany,
  type TestUser,
  updateUserAuthentication,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

/** The device a login comes from (docs/api-contract.md, "Known devices"). */
describe("X-Device-Id", () => {
  const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
  /** auth/login and auth/checkpassword with the headers: the answer of the step that authorizes. */
  const signIn = async (company: TestCompany, user: TestUser, deviceId?: string) => {
    const headers = { "User-Agent": firefox, ...(deviceId === undefined ? {} : { "X-Device-Id": deviceId }) };
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      headers,
      body: { login_id: user.loginName },
    });
    return call(company.code, "checkpassword", {
      apiKey: company.apiKey,
      headers,
      token: String(login.body.session_token),
      body: { password: user.password },
    });
  };
  const newDeviceNotices = (company: TestCompany, user: TestUser) =>
    noticesTo(company.id, user.email).filter((subject) => subject.startsWith("New sign-in to your"));

  it("reaches the session service: a device known is not told of, a new one is, once", async () => {
    const company = await createCompany();
    const user = await createUser(company);
    await signIn(company, user, "laptop-0123456789abcdef");
    await signIn(company, user, "laptop-0123456789abcdef");
    await signIn(company, user, "phone-0123456789abcdef");
    await expect.poll(() => newDeviceNotices(company, user), { timeout: 20_000 }).toHaveLength(1);
  });

  it.each(["short", "has spaces in it, 0123456789", "x".repeat(129), "ünïcödé-0123456789abc"])(
    "of another shape (%j) is taken as none, never refused: the browser and system tell the device",
    async (deviceId) => {
      const company = await createCompany();
      const user = await createUser(company);
      await signIn(company, user);
      const answer = await signIn(company, user, deviceId);
      expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("authorized");
      // Known by its browser and system: no notice; a device id of the right shape is a new device.
      await signIn(company, user, "tablet-0123456789abcdef");
      await expect.poll(() => newDeviceNotices(company, user), { timeout: 20_000 }).toHaveLength(1);
    },
  );
});

/** The user's own session management, beyond the spec (docs/api-contract.md, "Session management"). */
describe("auth/sessions and auth/sessions/end", () => {
  let company: TestCompany;
  const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

  /** auth/login and auth/checkpassword from a client that says it is `userAgent`: the authorized token. */
  const signIn = async (user: TestUser, userAgent = firefox, tenant = company) => {
    const headers = { "User-Agent": userAgent };
    const login = await call(tenant.code, "login", {
      apiKey: tenant.apiKey,
      headers,
      body: { login_id: user.loginName },
    });
    const authorized = await call(tenant.code, "checkpassword", {
      apiKey: tenant.apiKey,
      headers,
      token: String(login.body.session_token),
      body: { password: user.password },
    });
    expect(authorized.body.session_state, JSON.stringify(authorized.body)).toBe("authorized");
    return String(authorized.body.session_token);
  };
  const list = (token: string, tenant = company) =>
    call(tenant.code, "sessions", { apiKey: tenant.apiKey, token });
  const end = (token: string, body: unknown) =>
    call(company.code, "sessions/end", { apiKey: company.apiKey, token, body });
  const sessionsOf = async (token: string) => {
    const response = await list(token);
    expectSuccess(response, ["sessions"]);
    return response.body.sessions as Record<string, unknown>[];
  };

  beforeAll(async () => {
    company = await createCompany();
  });

  it("lists the user's active sessions with their client, marks the caller's, and shows no token", async () => {
    const user = await createUser(company);
    const first = await signIn(user, firefox);
    const second = await signIn(user, "curl/8.5.0\twith a tab");
    await signIn(await createUser(company));
    const response = await list(second);
    const sessions = await sessionsOf(second);
    expect(sessions).toHaveLength(2);
    expect(Object.keys(sessions[0] ?? {}).sort()).toEqual(
      [
        "authentication",
        "client_address",
        "created_at",
        "current",
        "last_seen_at",
        "session_id",
        "user_agent",
      ].sort(),
    );
    expect(sessions.map((session) => [session.user_agent, session.current])).toEqual([
      [firefox, false],
      ["curl/8.5.0with a tab", true],
    ]);
    expect(sessions[0]?.client_address).toMatch(/127\.0\.0\.1/);
    expect(Date.parse(String(sessions[0]?.created_at))).not.toBeNaN();
    const text = JSON.stringify(response.body);
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
    expect(text).not.toContain(user.loginName);
  });

  it("ends one session: its token stops working, the caller's goes on", async () => {
    const user = await createUser(company);
    const other = await signIn(user);
    const mine = await signIn(user);
    const [otherId] = (await sessionsOf(other)).filter((session) => session.current).map((s) => s.session_id);
    const ended = await end(mine, { session_id: otherId });
    expectSuccess(ended, ["ended"]);
    expect(ended.body.ended).toBe(1);
    expectError(await list(other), 401, "auth.token.invalid");
    expect(await sessionsOf(mine)).toHaveLength(1);
  });

  it("ends every other session of the user and keeps the caller's", async () => {
    const user = await createUser(company);
    const others = [await signIn(user), await signIn(user)];
    const mine = await signIn(user);
    const stranger = await signIn(await createUser(company));
    const ended = await end(mine, { others: true });
    expectSuccess(ended, ["ended"]);
    expect(ended.body.ended).toBe(2);
    for (const token of others) expectError(await list(token), 401, "auth.token.invalid");
    expect((await sessionsOf(mine)).map((session) => session.current)).toEqual([true]);
    expect(await sessionsOf(stranger)).toHaveLength(1);
  });

  it("answers a session of another user as an unknown one, and leaves it alone", async () => {
    const mine = await signIn(await createUser(company));
    const stranger = await signIn(await createUser(company));
    const [strangerId] = (await sessionsOf(stranger)).map((session) => session.session_id);
    expectError(await end(mine, { session_id: strangerId }), 404, "auth.session.notfound");
    expectError(await end(mine, { session_id: "01JD6X4M2Q8F0RZ3TQ7B9V5K1N" }), 404, "auth.session.notfound");
    expect(await sessionsOf(stranger)).toHaveLength(1);
  });

  it("ends the caller's own session when named: its token stops working", async () => {
    const mine = await signIn(await createUser(company));
    const [myId] = (await sessionsOf(mine)).map((session) => session.session_id);
    expectSuccess(await end(mine, { session_id: myId }), ["ended"]);
    expectError(await list(mine), 401, "auth.token.invalid");
  });

  it("takes exactly one of session_id and others", async () => {
    const mine = await signIn(await createUser(company));
    expectError(await end(mine, {}), 400, "request.validation.failed");
    expectError(await end(mine, { session_id: "x", others: true }), 400, "request.validation.failed");
    expectError(await end(mine, { others: false }), 400, "request.validation.failed");
  });

  it("is for an authorized session only", async () => {
    const user = await createUser(company);
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    expectError(await list(String(login.body.session_token)), 409, "auth.session.invalid");
    expectError(await call(company.code, "sessions", { apiKey: company.apiKey }), 401, "auth.header.missing");
  });

  it("ends a session unused for the company's inactivity timeout, and one in use at its absolute lifetime", async () => {
    const strict = await createCompany({ sessionIdleSeconds: 120, sessionAbsoluteSeconds: 600 });
    const idle = await signIn(await createUser(strict), firefox, strict);
    const busy = await signIn(await createUser(strict), firefox, strict);
    for (let elapsed = 0; elapsed < 540; elapsed += 90) {
      suite().clock.advance(90_000);
      expectSuccess(await list(busy, strict), ["sessions"]);
    }
    expectError(await list(idle, strict), 401, "auth.token.expired");
    suite().clock.advance(90_000);
    expectError(await list(busy, strict), 401, "auth.token.expired");
  });

  it("ends every session of the user when an operator changes the user's phone or second factor (docs/security.md)", async () => {
    const user = await createUser(company);
    const bystander = await signIn(await createUser(company));
    let tokens = [await signIn(user), await signIn(user)];
    await updateUserAuthentication(company, user, { secondFactorRequired: true });
    for (const token of tokens) expectError(await list(token), 401, "auth.token.invalid");
    await updateUserAuthentication(company, user, { secondFactorRequired: false });
    tokens = [await signIn(user)];
    await updateUserAuthentication(company, user, { phone: "+12015550123" });
    for (const token of tokens) expectError(await list(token), 401, "auth.token.invalid");
    expect(await sessionsOf(bystander)).toHaveLength(1);
  });
});
