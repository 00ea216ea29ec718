import { describe, expect, it, vi } from "vitest";
import { call } from "./support/api.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { type Notice, notificationsTo } from "./support/outbox.js";

const captcha = "dev-captcha-pass";
/** Notices are sent in the background, after the answer: the time a loaded machine may take. */
const waitMs = 30_000;
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

/** checkcredentials from the device: the session's token. */
async function signIn(company: TestCompany, user: TestUser, deviceId: string): Promise<string> {
  const answer = await call(company.code, "checkcredentials", {
    apiKey: company.apiKey,
    headers: { "User-Agent": firefox, "X-Device-Id": deviceId },
    body: { login_id: user.loginName, password: user.password, captcha_response: captcha },
  });
  expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("authorized");
  return String(answer.body.session_token);
}

const notices = (company: TestCompany, user: TestUser): Notice[] =>
  notificationsTo(company.id, { email: user.email, phone: user.phone });

/** docs/decisions.md, "Known devices": through the gateway, the session service and identity's mail. */
describe("the new-device notice", () => {
  it("tells of a third sign-in from another device, not of two from one", async () => {
    const company = await createCompany();
    const user = await createUser(company);
    await signIn(company, user, "laptop-0123456789abcdef");
    await signIn(company, user, "laptop-0123456789abcdef");
    await signIn(company, user, "phone-0123456789abcdef");
    await vi.waitFor(() => expect(notices(company, user).length).toBeGreaterThanOrEqual(1), {
      timeout: waitMs,
      interval: 100,
    });
    const [notice, ...others] = notices(company, user);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ notification: "new_device", channel: "email" });
    expect(notice?.text).toContain("from Firefox on Linux on");
    expect(notice?.text).toContain("If this was not you");
    for (const secret of [user.password ?? "", "phone-0123456789abcdef", firefox])
      expect(JSON.stringify(notice)).not.toContain(secret);
  });
});

/** docs/decisions.md, "Session cap". */
describe("the session cap", () => {
  it("leaves the cap's newest of the cap and two parallel logins", async () => {
    const cap = 3;
    // Parallel checks count as failed until reported: no captcha or lock-out in their way.
    const company = await createCompany({ maxSessionsPerUser: cap, captchaAfterFailures: 20 });
    const user = await createUser(company);
    const tokens = await Promise.all(
      Array.from({ length: cap + 2 }, () => signIn(company, user, "laptop-0123456789abcdef")),
    );
    const listed = await Promise.all(
      tokens.map((token) => call(company.code, "sessions", { apiKey: company.apiKey, token, body: {} })),
    );
    const alive = listed.filter((answer) => answer.body.status === "success");
    expect(alive).toHaveLength(cap);
    for (const answer of alive) expect(answer.body.sessions).toHaveLength(cap);
    for (const answer of listed.filter((answer) => answer.body.status !== "success"))
      expect(answer.body.error_code).toBe("auth.token.invalid");
  });
});
