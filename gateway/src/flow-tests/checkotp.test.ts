import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  expectError,
  expectSuccess,
  generateBackupCodes,
  lastOtp,
  passwordStep,
  smsTo,
  startLogin,
  type TestCompany,
  type TestUser,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

describe("auth/checkotp", () => {
  let company: TestCompany;
  const checkotp = (token: string, body: Record<string, unknown>, target = company) =>
    call(target.code, "checkotp", { apiKey: target.apiKey, token, body });

  /** A session in state checkotp: login of a user without a password. */
  async function otpSession(options: Parameters<typeof createUser>[1] = {}, target = company) {
    const user = await createUser(target, { password: null, ...options });
    const token = await startLogin(target, user.loginName);
    return { user, token };
  }
  const wrong = (otp: string) => (otp === "000000" ? "111111" : "000000");

  beforeAll(async () => {
    company = await createCompany();
  });

  describe("transition checkotp -> authorized: nothing further required", () => {
    it("returns a new token in state authorized with profile_mnemocode for the right OTP", async () => {
      const { user, token } = await otpSession();
      const response = await checkotp(token, { otp: lastOtp(company.id, user.phone) });
      expectSuccess(response, ["session_token", "session_state", "profile_mnemocode"]);
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
      expect(response.body.session_token).not.toBe(token);
    });

    it("completes the second factor after a password", async () => {
      const user = await createUser(company, { secondFactorRequired: true });
      const step = await passwordStep(company, user);
      const response = await checkotp(String(step.body.session_token), {
        otp: lastOtp(company.id, user.phone),
      });
      expect(response.body.session_state).toBe("authorized");
    });
  });

  describe("transition checkotp -> setpassword: new password must be set", () => {
    it("returns state setpassword with the password fields", async () => {
      const { user, token } = await otpSession({ passwordChangeRequired: true });
      const response = await checkotp(token, { otp: lastOtp(company.id, user.phone) });
      expectSuccess(response, [
        "session_token",
        "session_state",
        "password_regex",
        "password_regex_description",
      ]);
      expect(response.body.session_state).toBe("setpassword");
    });

    it("remembers a password that no longer fits the regex, through the OTP step", async () => {
      const strict = await createCompany({ passwordRegex: "[0-9]" });
      const user = await createUser(strict, { password: "no-digits-here", secondFactorRequired: true });
      const step = await passwordStep(strict, user);
      expect(step.body.session_state).toBe("checkotp");
      const response = await checkotp(
        String(step.body.session_token),
        { otp: lastOtp(strict.id, user.phone) },
        strict,
      );
      expect(response.body.session_state).toBe("setpassword");
    });
  });

  describe("rule 1: an invalid OTP", () => {
    it("answers auth.otp.invalid with 401 for the right OTP after its 5 minutes", async () => {
      const { user, token } = await otpSession();
      const otp = lastOtp(company.id, user.phone);
      suite().clock.advance(5 * 60_000);
      expectError(await checkotp(token, { otp }), 401, "auth.otp.invalid");
    });

    it("answers auth.otp.invalid with 401", async () => {
      const { user, token } = await otpSession();
      expectError(
        await checkotp(token, { otp: wrong(lastOtp(company.id, user.phone)) }),
        401,
        "auth.otp.invalid",
      );
    });

    it("burns the OTP: the right one fails too until renewotp sends a new one", async () => {
      const { user, token } = await otpSession();
      const otp = lastOtp(company.id, user.phone);
      await checkotp(token, { otp: wrong(otp) });
      expectError(await checkotp(token, { otp }), 401, "auth.otp.invalid");
    });

    it("counts toward the lock-out of the login ID", async () => {
      const strict = await createCompany({ lockoutAfterFailures: 2 });
      const { user, token } = await otpSession({}, strict);
      await checkotp(token, { otp: "000000" }, strict);
      await checkotp(token, { otp: "000000" }, strict);
      expectError(
        await checkotp(token, { otp: lastOtp(strict.id, user.phone) }, strict),
        403,
        "auth.restricted",
      );
    });
  });

  describe("rule 2: backup codes", () => {
    let user: TestUser;
    let codes: string[];
    beforeAll(async () => {
      user = await createUser(company, { secondFactorRequired: true });
      codes = await generateBackupCodes(company, user);
    });
    const otpStep = async () => String((await passwordStep(company, user)).body.session_token);

    it("pass the second factor instead of the OTP", async () => {
      const response = await checkotp(await otpStep(), { backup_code: codes[0] });
      expect(response.body.session_state).toBe("authorized");
    });

    it("work once: a used code answers auth.backupcode.invalid with 401", async () => {
      await checkotp(await otpStep(), { backup_code: codes[1] });
      expectError(await checkotp(await otpStep(), { backup_code: codes[1] }), 401, "auth.backupcode.invalid");
    });

    it("answer auth.backupcode.invalid with 401 when wrong", async () => {
      expectError(
        await checkotp(await otpStep(), { backup_code: "0000-0000-0000" }),
        401,
        "auth.backupcode.invalid",
      );
    });
  });

  describe("rule 3: disclaimers", () => {
    it("are checked before the OTP, so a missing code does not burn it", async () => {
      const withTerms = await createCompany();
      const terms = await createDisclaimer(withTerms, "terms");
      const { user, token } = await otpSession({}, withTerms);
      const otp = lastOtp(withTerms.id, user.phone);
      const refused = await checkotp(token, { otp }, withTerms);
      expectError(refused, 403, "auth.disclaimer.invalid", ["disclaimers_required"]);
      expect(refused.body.disclaimers_required).toEqual([terms]);
      const accepted = await checkotp(token, { otp, accept_disclaimers: ["terms"] }, withTerms);
      expect(accepted.body.session_state).toBe("authorized");
    });
  });

  describe("request body", () => {
    it.each([
      ["neither otp nor backup_code", {}],
      ["both otp and backup_code", { otp: "123456", backup_code: "0000-0000-0000" }],
      ["an otp that is not a string", { otp: 123456 }],
      ["an empty otp", { otp: "" }],
      ["an empty backup_code", { backup_code: "" }],
    ])("answers request.validation.failed with 400 for %s, and leaves the OTP unburnt", async (_, body) => {
      const { user, token } = await otpSession();
      expectError(await checkotp(token, body), 400, "request.validation.failed");
      expect((await checkotp(token, { otp: lastOtp(company.id, user.phone) })).body.session_state).toBe(
        "authorized",
      );
    });
  });

  describe("session state", () => {
    it("answers auth.session.invalid with 409 for a token in state checkpassword", async () => {
      const user = await createUser(company);
      expectError(
        await checkotp(await startLogin(company, user.loginName), { otp: "123456" }),
        409,
        "auth.session.invalid",
      );
      expect(smsTo(company.id, user.phone)).toEqual([]);
    });
  });
});
