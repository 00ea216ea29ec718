import { beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "./support/api.js";
import {
  createCompany,
  createUser,
  generateBackupCodes,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { recoverToSetpassword } from "./support/flows.js";
import { type Notice, notificationsTo } from "./support/outbox.js";

const captcha = "dev-captcha-pass";
/** Notices are sent in the background, after the answer: the time a loaded machine may take. */
const waitMs = 30_000;

/** Waits until the user has been sent `count` notices, and returns them. */
async function noticesOf(company: TestCompany, user: TestUser, count: number): Promise<Notice[]> {
  const of = () => notificationsTo(company.id, { email: user.email, phone: user.phone });
  await vi.waitFor(() => expect(of().length).toBeGreaterThanOrEqual(count), {
    timeout: waitMs,
    interval: 100,
  });
  return of();
}

/**
 * docs/security.md, "Notifications": the user is told, by e-mail or by SMS without one, of a
 * password change, a recovery's start and end, new backup codes and a lock-out; a notice holds no
 * secret and says what to do if it was not the user.
 */
describe("notices to the user", () => {
  let company: TestCompany;

  beforeAll(async () => {
    company = await createCompany({ lockoutAfterFailures: 3, captchaAfterFailures: 10 });
  });

  it("a recovery to a new password: recovery started, password changed, recovery completed, by e-mail", async () => {
    const user = await createUser(company, { controlQuestion: "First pet?", controlAnswer: "Rex the dog" });
    const token = await recoverToSetpassword(company, user.loginName, "Rex the dog");
    const newPassword = "a new password from recovery 1";
    const set = await call(company.code, "setpassword", {
      apiKey: company.apiKey,
      token,
      body: { new_password: newPassword },
    });
    expect(set.body).toEqual({ status: "success" });
    const notices = await noticesOf(company, user, 3);
    expect(notices.map((notice) => notice.notification).sort()).toEqual([
      "password_changed",
      "recovery_completed",
      "recovery_started",
    ]);
    for (const notice of notices) {
      expect(notice.channel).toBe("email");
      expect(notice.text).toContain("not you");
      for (const secret of [newPassword, "Rex the dog", user.password ?? "", token])
        expect(JSON.stringify(notice)).not.toContain(secret);
    }
  });

  it.each([
    ["e-mail", {}, "email"],
    ["SMS, for a user without e-mail", { email: null }, "sms"],
  ] as const)("a lock-out, once, by %s", async (_, options, channel) => {
    const user = await createUser(company, options);
    const guess = () =>
      call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password: "not the password", captcha_response: captcha },
      });
    for (let i = 0; i < 3; i++) expect((await guess()).body.error_code).toBe("auth.credentials.invalid");
    expect((await guess()).body.error_code).toBe("auth.restricted");
    const [notice] = await noticesOf(company, user, 1);
    expect(notice).toMatchObject({ notification: "locked_out", channel });
    // The guess refused while locked out tells nothing more: once a later notice is in, there is
    // still one of the lock-out.
    await generateBackupCodes(company, user);
    const after = await noticesOf(company, user, 2);
    expect(after.filter((n) => n.notification === "locked_out")).toHaveLength(1);
  });

  it("a new set of backup codes, without any code", async () => {
    const user = await createUser(company);
    const codes = await generateBackupCodes(company, user);
    const [notice] = await noticesOf(company, user, 1);
    expect(notice).toMatchObject({ notification: "backup_codes_issued", channel: "email" });
    for (const code of codes) expect(JSON.stringify(notice).toUpperCase()).not.toContain(code.toUpperCase());
  });
});
