import type { ApiResponse } from "@auth/testing/api";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  compared,
  createCompany,
  createUser,
  enrolAuthenticator,
  expectError,
  generateBackupCodes,
  startLogin,
  type TestCompany,
  type TestUser,
  totpCode,
  updateUserAuthentication,
  useInProcessSuite,
  wrongTotpCode,
} from "../testing/fixtures.js";

useInProcessSuite();

/** The answers of a run, by code ("success" for a success). */
const tally = (answers: ApiResponse[]) =>
  answers.reduce<Record<string, number>>((counts, answer) => {
    const key = answer.body.status === "success" ? "success" : String(answer.body.error_code);
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

/**
 * docs/security.md, "Guesses per hour at one user": each kind of secret has a budget of its own per
 * user, which no other kind's right answer clears. An attacker who knows the password gets no more
 * guesses at the second factor than the company's lock-out allows (10 in its window, by default).
 */
describe("a budget per factor kind, which no other kind clears", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });
  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  /** The right password, which takes a user with a second factor to checkotp: that session's token. */
  async function pastThePassword(user: TestUser): Promise<string> {
    const step = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(step.body.session_state, JSON.stringify(step.body)).toBe("checkotp");
    return String(step.body.session_token);
  }

  it("a known password never reopens the app's codes: of 60 rounds of (right password, wrong app code) 10 codes are compared, then auth.restricted even for the right code", async () => {
    const user = await createUser(company);
    const secret = await enrolAuthenticator(company, user);
    const wrong = await wrongTotpCode(secret);
    const before = await compared("totp");
    const answers: ApiResponse[] = [];
    for (let round = 0; round < 60; round += 1) {
      answers.push(await post("checkotp", { otp: wrong }, await pastThePassword(user)));
    }
    expect(tally(answers)).toEqual({ "auth.otp.invalid": 10, "auth.restricted": 50 });
    expect((await compared("totp")) - before).toBe(10);
    const right = await post("checkotp", { otp: await totpCode(secret) }, await pastThePassword(user));
    expectError(right, 403, "auth.restricted");
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await compared("totp")) - before).toBe(10);
  });

  it("a known password never reopens the backup codes: of 60 rounds of (right password, wrong backup code) 10 are compared, then auth.restricted even for a right one", async () => {
    // No phone: each login would send an SMS, whose cap (10 an hour) is not what this test counts.
    const user = await createUser(company, { secondFactorRequired: true, phone: null });
    const codes = await generateBackupCodes(company, user);
    const before = await compared("backup_code");
    const answers: ApiResponse[] = [];
    for (let round = 0; round < 60; round += 1) {
      answers.push(await post("checkotp", { backup_code: "AAAA-AAAA-AAAA" }, await pastThePassword(user)));
    }
    expect(tally(answers)).toEqual({ "auth.backupcode.invalid": 10, "auth.restricted": 50 });
    expect((await compared("backup_code")) - before).toBe(10);
    expectError(
      await post("checkotp", { backup_code: codes[0] }, await pastThePassword(user)),
      403,
      "auth.restricted",
    );
    expect((await compared("backup_code")) - before).toBe(10);
  });

  it("keeps the kinds apart: with the app's codes used up, a backup code still signs the user in, and the right factor forgets the second factors' failures", async () => {
    const user = await createUser(company);
    const secret = await enrolAuthenticator(company, user);
    const codes = await generateBackupCodes(company, user);
    const wrong = await wrongTotpCode(secret);
    for (let round = 0; round < 10; round += 1) {
      expectError(
        await post("checkotp", { otp: wrong }, await pastThePassword(user)),
        401,
        "auth.otp.invalid",
      );
    }
    expectError(await post("checkotp", { otp: wrong }, await pastThePassword(user)), 403, "auth.restricted");
    const signedIn = await post("checkotp", { backup_code: codes[0] }, await pastThePassword(user));
    expect(signedIn.body.session_state).toBe("authorized");
    // The app's failures went with the right second factor.
    expectError(await post("checkotp", { otp: wrong }, await pastThePassword(user)), 401, "auth.otp.invalid");
  });

  it("a wrong second factor never touches the password's budget: no captcha after 10 wrong app codes", async () => {
    const user = await createUser(company);
    const secret = await enrolAuthenticator(company, user);
    const wrong = await wrongTotpCode(secret);
    for (let round = 0; round < 10; round += 1)
      await post("checkotp", { otp: wrong }, await pastThePassword(user));
    const login = await post("login", { login_id: user.loginName });
    expect(login.body).toMatchObject({ session_state: "checkpassword", captcha_required: false });
  });

  it("new credentials start new budgets: after an operator's new password the app's codes are compared again", async () => {
    const user = await createUser(company);
    const secret = await enrolAuthenticator(company, user);
    const wrong = await wrongTotpCode(secret);
    for (let round = 0; round < 10; round += 1)
      await post("checkotp", { otp: wrong }, await pastThePassword(user));
    expectError(await post("checkotp", { otp: wrong }, await pastThePassword(user)), 403, "auth.restricted");
    const password = "a new password set by the operator";
    await updateUserAuthentication(company, user, { password });
    const step = await post("checkcredentials", { login_id: user.loginName, password });
    const checked = await post(
      "checkotp",
      { otp: await totpCode(secret, 1) },
      String(step.body.session_token),
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
  });
});

describe("one check at a time per session", () => {
  it("of 5 right passwords at once on one token, 1 authorizes and 4 answer auth.token.invalid, and none counts as a failure", async () => {
    const company = await createCompany();
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    const before = await compared("password");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(company.code, "checkpassword", {
          apiKey: company.apiKey,
          token,
          body: { password: user.password },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ success: 1, "auth.token.invalid": 4 });
    expect((await compared("password")) - before).toBeLessThanOrEqual(5);
    // No failure was counted: 3 wrong passwords still come before a captcha is asked.
    const wrongOnes: ApiResponse[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      wrongOnes.push(
        await call(company.code, "checkcredentials", {
          apiKey: company.apiKey,
          body: { login_id: user.loginName, password: `wrong-${attempt}` },
        }),
      );
    }
    expect(wrongOnes.map((answer) => answer.body.error_code)).toEqual([
      "auth.credentials.invalid",
      "auth.credentials.invalid",
      "auth.credentials.invalid",
      "auth.captcha.missing",
    ]);
  });
});
