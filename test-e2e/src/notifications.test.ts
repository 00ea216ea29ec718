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
import { type Notice, notificationsTo, smsTo } from "./support/outbox.js";
import { enrolAuthenticator, totpCode, wrongTotpCode } from "./support/totp.js";

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

/**
 * docs/security.md, "Guesses per hour at one user": the check that fills a kind's budget sends the
 * lock-out notice, once per filling. For the app's codes a known password changes nothing: a right
 * password neither clears their failures nor sends another notice.
 */
describe("the lock-out notice of the authenticator app's codes (the default policy)", () => {
  let company: TestCompany;

  beforeAll(async () => {
    company = await createCompany();
  });
  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  const namesOf = (notices: Notice[]) => notices.map((notice) => notice.notification);

  it("goes out once, when the 10th wrong app code fills the budget, whatever right passwords come between", async () => {
    const user = await createUser(company, { controlQuestion: "First pet?", controlAnswer: "Rex" });
    const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    const secret = await enrolAuthenticator(post, String(signedIn.body.session_token));
    /** The right password, then this code of the app, in a new session. */
    const round = async (otp: string) => {
      const step = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      expect(step.body.session_state, JSON.stringify(step.body)).toBe("checkotp");
      return String((await post("checkotp", { otp }, String(step.body.session_token))).body.error_code);
    };
    /** New backup codes, whose notice comes after anything the guesses before it sent. */
    const laterNotice = () => generateBackupCodes(company, user);
    const wrong = await wrongTotpCode(secret);

    const nine: string[] = [];
    for (let guess = 0; guess < 9; guess += 1) nine.push(await round(wrong));
    expect(nine).toEqual(Array(9).fill("auth.otp.invalid"));
    await laterNotice();
    // The app and the first backup codes that came with it (docs/decisions.md, Passkeys), told at
    // once in either order, then the new set.
    const enrolled = ["authenticator_app_added", "backup_codes_issued"];
    const told = namesOf(await noticesOf(company, user, 3));
    expect(told.slice(0, 2).sort()).toEqual(enrolled);
    expect(told[2]).toBe("backup_codes_issued");

    expect(await round(wrong)).toBe("auth.otp.invalid");
    const filled = await noticesOf(company, user, 4);
    expect(filled[3]).toMatchObject({ notification: "locked_out", channel: "email" });

    // More rounds, each with the right password, the app's right code last: refused, and no notice.
    const after: string[] = [];
    for (let guess = 0; guess < 5; guess += 1) after.push(await round(wrong));
    after.push(await round(await totpCode(secret, 1)));
    expect(after).toEqual(Array(6).fill("auth.restricted"));
    await laterNotice();
    const all = namesOf(await noticesOf(company, user, 5));
    expect(all.slice(0, 2).sort()).toEqual(enrolled);
    expect(all.slice(2)).toEqual(["backup_codes_issued", "locked_out", "backup_codes_issued"]);
  });
});

/**
 * docs/security.md, "Notifications": "recovery started" follows the real send of a code or link
 * (identity tells it once it spent the recovery message), or a recovery by control question; and
 * every kind of notice is capped per user (these: one per 15 minutes), so that recoveries an
 * attacker starts by the dozen, a captcha each, send the user one notice, not one each.
 */
describe("notices of many recoveries", () => {
  let company: TestCompany;

  beforeAll(async () => {
    company = await createCompany();
  });
  const recover = (loginId: string, method: "PHONE" | "QUESTION") =>
    call(company.code, "recovery/recover", {
      apiKey: company.apiKey,
      body: { login_id: loginId, captcha_response: captcha, method },
    });
  /**
   * The user's notices once new backup codes were told of: asked after every recovery was
   * answered, their notice comes after those the recoveries started.
   */
  const noticesAfterAll = async (user: TestUser) => {
    const before = notificationsTo(company.id, { email: user.email, phone: user.phone }).length;
    await generateBackupCodes(company, user);
    await vi.waitFor(
      () =>
        expect(
          notificationsTo(company.id, { email: user.email, phone: user.phone }).filter(
            (notice) => notice.notification === "backup_codes_issued",
          ),
        ).toHaveLength(1),
      { timeout: waitMs, interval: 100 },
    );
    const notices = notificationsTo(company.id, { email: user.email, phone: user.phone });
    expect(notices.length).toBeGreaterThan(before);
    return notices.filter((notice) => notice.notification === "recovery_started");
  };

  it("35 recoveries by PHONE: 5 codes (the recovery messages of the hour) and one 'recovery started' e-mail", async () => {
    const user = await createUser(company);
    const statuses: number[] = [];
    for (let i = 0; i < 35; i += 1) statuses.push((await recover(user.loginName, "PHONE")).status);
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(30).fill(429)]);
    expect(smsTo(company.id, user.phone)).toHaveLength(5);
    const started = await noticesAfterAll(user);
    expect(started.map((notice) => notice.channel)).toEqual(["email"]);
  });

  it("35 recoveries by QUESTION of a user without e-mail: one 'recovery started' SMS", async () => {
    const user = await createUser(company, {
      email: null,
      controlQuestion: "First pet?",
      controlAnswer: "Rex the dog",
    });
    const states: unknown[] = [];
    for (let i = 0; i < 35; i += 1)
      states.push((await recover(user.loginName, "QUESTION")).body.session_state);
    expect(states).toEqual(Array(35).fill("recovery-checkquestion"));
    const started = await noticesAfterAll(user);
    expect(started.map((notice) => notice.channel)).toEqual(["sms"]);
  });
});
