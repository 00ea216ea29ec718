import { UserStatus } from "@auth/proto/identity";
import { beforeAll, describe, expect, it } from "vitest";
import { freshAuthenticationSeconds } from "../steps/factor-change.js";
import {
  call,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  lastOtp,
  smsTo,
  startLogin,
  type TestCompany,
  type TestUser,
  totpCode,
  updateUserStatus,
  useInProcessSuite,
  wrongTotpCode,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

const codeOf = totpCode;

/**
 * docs/decisions.md, "TOTP": a user with an authenticator app reaches checkotp by the spec's
 * transitions with no SMS and no user_phone, and checkotp's otp takes the app's code.
 */
describe("an authenticator app as the second factor (docs/decisions.md, TOTP)", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });
  const post = (operation: string, body: Record<string, unknown> = {}, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });

  /** Signs the user in with the password and enrols an app; its secret and the backup codes it came with. */
  async function enrol(user: TestUser): Promise<{ secret: string; backupCodes: string[] }> {
    const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    const token = String(signedIn.body.session_token);
    const enrolled = await post("totp/enrol", {}, token);
    expectSuccess(enrolled, ["otpauth_uri", "secret"]);
    const secret = String(enrolled.body.secret);
    const confirmed = await post("totp/confirm", { code: await codeOf(secret) }, token);
    // A new user has no backup codes: the first set comes with the app (docs/decisions.md, Passkeys).
    expectSuccess(confirmed, ["sessions_ended", "backup_codes"]);
    const backupCodes = confirmed.body.backup_codes as string[];
    expect(backupCodes).toHaveLength(10);
    return { secret, backupCodes };
  }

  it("checkpassword moves to checkotp without an SMS and without user_phone, and the app's code authorizes", async () => {
    const user = await createUser(company);
    const { secret } = await enrol(user);
    const token = await startLogin(company, user.loginName);
    const atOtp = await post("checkpassword", { password: user.password }, token);
    expectSuccess(atOtp, ["session_token", "session_state"]);
    expect(atOtp.body.session_state).toBe("checkotp");
    expect(smsTo(company.id, user.phone)).toEqual([]);
    const checked = await post(
      "checkotp",
      { otp: await codeOf(secret, 1) },
      String(atOtp.body.session_token),
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
  });

  it("login of a user without a password goes to checkotp with no SMS once the user has an app", async () => {
    const user = await createUser(company, { password: null });
    const bySms = await post("login", { login_id: user.loginName });
    const authorized = await post(
      "checkotp",
      { otp: lastOtp(company.id, user.phone) },
      String(bySms.body.session_token),
    );
    const token = String(authorized.body.session_token);
    const secret = String((await post("totp/enrol", {}, token)).body.secret);
    expectSuccess(await post("totp/confirm", { code: await codeOf(secret) }, token), [
      "sessions_ended",
      "backup_codes",
    ]);
    const atOtp = await post("login", { login_id: user.loginName });
    expectSuccess(atOtp, ["session_token", "session_state", "disclaimers_required"]);
    expect(smsTo(company.id, user.phone)).toHaveLength(1);
    const checked = await post(
      "checkotp",
      { otp: await codeOf(secret, 1) },
      String(atOtp.body.session_token),
    );
    expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
  });

  it("renewotp sends nothing to such a user and answers without user_phone", async () => {
    const user = await createUser(company);
    await enrol(user);
    const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expectSuccess(await post("renewotp", {}, String(atOtp.body.session_token)), []);
    expect(smsTo(company.id, user.phone)).toEqual([]);
  });

  it("refuses a wrong code with auth.otp.invalid, and a backup code issued with the app works", async () => {
    const user = await createUser(company);
    const { secret, backupCodes } = await enrol(user);
    const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    const token = String(atOtp.body.session_token);
    const right = await codeOf(secret, 1);
    expectError(
      await post("checkotp", { otp: right === "000000" ? "111111" : "000000" }, token),
      401,
      "auth.otp.invalid",
    );
    const checked = await post("checkotp", { backup_code: backupCodes[0] }, token);
    expect(checked.body.session_state).toBe("authorized");
  });

  it("asks for a fresh authentication: 10 minutes after it, enrol and confirm answer 403 auth.reauthentication.required (ASVS 5.0 7.5.1)", async () => {
    const user = await createUser(company);
    const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    const token = String(signedIn.body.session_token);
    const secret = String((await post("totp/enrol", {}, token)).body.secret);
    suite().clock.advance((freshAuthenticationSeconds + 1) * 1000);
    expectError(await post("totp/enrol", {}, token), 403, "auth.reauthentication.required");
    expectError(
      await post("totp/confirm", { code: await codeOf(secret) }, token),
      403,
      "auth.reauthentication.required",
    );
    // A new login may.
    const again = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expectSuccess(await post("totp/enrol", {}, String(again.body.session_token)), ["otpauth_uri", "secret"]);
  });

  describe("replacing the app (docs/security.md, Changing a factor)", () => {
    it("needs a code of the current app: none is 400, a wrong one 401 and nothing changes, a right one replaces it", async () => {
      const user = await createUser(company);
      const { secret: old, backupCodes } = await enrol(user);
      // A fresh login with both factors; a backup code, since each step of the app is accepted once
      // and the enrolment used the current one.
      const [backupCode] = backupCodes;
      const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      const signedIn = await post("checkotp", { backup_code: backupCode }, String(atOtp.body.session_token));
      const token = String(signedIn.body.session_token);
      const next = String((await post("totp/enrol", {}, token)).body.secret);
      expectError(
        await post("totp/confirm", { code: await codeOf(next) }, token),
        400,
        "request.validation.failed",
      );
      expectError(
        await post(
          "totp/confirm",
          { code: await codeOf(next), current_code: await wrongTotpCode(old) },
          token,
        ),
        401,
        "auth.otp.invalid",
      );
      const replaced = await post(
        "totp/confirm",
        { code: await codeOf(next), current_code: await codeOf(old, 1) },
        token,
      );
      // The user has the backup codes issued with the first app: none come with this one.
      expectSuccess(replaced, ["sessions_ended"]);
      const withNew = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      expect(
        (await post("checkotp", { otp: await codeOf(next, 1) }, String(withNew.body.session_token))).body
          .session_state,
      ).toBe("authorized");
    });

    it("answers the user's status on enrol and confirm: a closed user gets auth.user.closed", async () => {
      const user = await createUser(company);
      const signedIn = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      const token = String(signedIn.body.session_token);
      const secret = String((await post("totp/enrol", {}, token)).body.secret);
      await updateUserStatus(company, user, UserStatus.CLOSED);
      expectError(await post("totp/enrol", {}, token), 403, "auth.user.closed");
      expectError(await post("totp/confirm", { code: await codeOf(secret) }, token), 403, "auth.user.closed");
    });
  });
});
