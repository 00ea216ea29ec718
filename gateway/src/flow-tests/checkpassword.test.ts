import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  expectError,
  expectSuccess,
  passwordStep,
  smsTo,
  startLogin,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const devCaptcha = "dev-captcha-pass";

describe("auth/checkpassword", () => {
  let company: TestCompany;
  const checkpassword = (token: string, body: Record<string, unknown>) =>
    call(company.code, "checkpassword", { apiKey: company.apiKey, token, body });

  beforeAll(async () => {
    company = await createCompany();
  });

  describe("transition checkpassword -> authorized: nothing further required", () => {
    it("returns a new token in state authorized with profile_mnemocode", async () => {
      const user = await createUser(company);
      const response = await passwordStep(company, user);
      expectSuccess(response, ["session_token", "session_state", "profile_mnemocode"]);
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });

    it("invalidates the checkpassword token: a state change rotates the token", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      const response = await checkpassword(token, { password: user.password });
      expect(response.body.session_token).not.toBe(token);
      expectError(await checkpassword(token, { password: user.password }), 401, "auth.token.invalid");
    });
  });

  describe("transition checkpassword -> checkotp: second factor required", () => {
    it("returns state checkotp with user_phone and sends the OTP", async () => {
      const user = await createUser(company, { secondFactorRequired: true });
      const response = await passwordStep(company, user);
      expectSuccess(response, ["session_token", "session_state", "user_phone"]);
      expect(response.body).toMatchObject({
        session_state: "checkotp",
        user_phone: `+1********${user.phone.slice(-2)}`,
      });
      expect(smsTo(company.id, user.phone)).toHaveLength(1);
    });

    it("is required for every user of a role the company names", async () => {
      const strict = await createCompany({ twoFactorRoles: ["admin"] });
      const user = await createUser(strict, { role: "admin" });
      expect((await passwordStep(strict, user)).body.session_state).toBe("checkotp");
    });
  });

  describe("transition checkpassword -> setpassword: new password must be set", () => {
    it("returns state setpassword with the password fields: no regex when the company sets none, and every rule described", async () => {
      const user = await createUser(company, { passwordChangeRequired: true });
      const response = await passwordStep(company, user);
      expectSuccess(response, [
        "session_token",
        "session_state",
        "password_regex",
        "password_regex_description",
      ]);
      expect(response.body).toMatchObject({
        session_state: "setpassword",
        password_regex: null,
        password_regex_description:
          "At least 15 and at most 256 characters. Not a common or breached password. Not containing the company's name or code, nor your login name, the name of your e-mail or your phone number. Not the current password.",
      });
    });

    it("is required when the password no longer matches the company's regex", async () => {
      const strict = await createCompany({
        passwordRegex: "^(?=.*[A-Z]).{8,}$",
        passwordRegexDescription: "One capital",
      });
      const user = await createUser(strict, { password: "all-lower-case" });
      const response = await passwordStep(strict, user);
      expect(response.body).toMatchObject({
        session_state: "setpassword",
        password_regex: "^(?=.*[A-Z]).{8,}$",
        password_regex_description: expect.stringMatching(/\. One capital$/),
      });
    });
  });

  describe("rule 1: wrong password", () => {
    it("answers auth.password.invalid with 401 and captcha_required", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      const response = await checkpassword(token, { password: "wrong password" });
      expectError(response, 401, "auth.password.invalid", ["captcha_required"]);
      expect(response.body.captcha_required).toBe(false);
    });

    it("keeps the session in checkpassword so the user can try again", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      await checkpassword(token, { password: "wrong password" });
      expect((await checkpassword(token, { password: user.password })).body.session_state).toBe("authorized");
    });
  });

  describe("rule 2: captcha after 3 failed attempts", () => {
    it("requires a valid captcha_response once the login ID has failed 3 times", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      const failures = [];
      for (let i = 0; i < 3; i += 1)
        failures.push((await checkpassword(token, { password: "wrong" })).body.captcha_required);
      expect(failures).toEqual([false, false, true]);

      const login = await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName },
      });
      expect(login.body.captcha_required).toBe(true);
      const next = String(login.body.session_token);
      expectError(await checkpassword(next, { password: user.password }), 403, "auth.captcha.missing", [
        "captcha_required",
      ]);
      expectError(
        await checkpassword(next, { password: user.password, captcha_response: "forged" }),
        403,
        "auth.captcha.invalid",
        ["captcha_required"],
      );
      const passed = await checkpassword(next, { password: user.password, captcha_response: devCaptcha });
      expect(passed.body.session_state).toBe("authorized");
    });

    it("forgets the failures after a success", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      for (let i = 0; i < 3; i += 1) await checkpassword(token, { password: "wrong" });
      await checkpassword(token, { password: user.password, captcha_response: devCaptcha });
      const login = await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName },
      });
      expect(login.body.captcha_required).toBe(false);
    });
  });

  describe("lock-out after 10 failed attempts", () => {
    it("answers auth.restricted with 403 on login and checkpassword, even with the right password", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      for (let i = 0; i < 10; i += 1)
        await checkpassword(token, { password: "wrong", captcha_response: devCaptcha });
      expectError(
        await checkpassword(token, { password: user.password, captcha_response: devCaptcha }),
        403,
        "auth.restricted",
      );
      const login = await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName },
      });
      expectError(login, 403, "auth.restricted");
      expect(Number(login.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  describe("rule 3: disclaimers", () => {
    it("answers auth.disclaimer.invalid with disclaimers_required while a code is missing, and costs no attempt", async () => {
      const withTerms = await createCompany();
      const terms = await createDisclaimer(withTerms, "terms");
      const user = await createUser(withTerms);
      const token = await startLogin(withTerms, user.loginName);
      const refused = await call(withTerms.code, "checkpassword", {
        apiKey: withTerms.apiKey,
        token,
        body: { password: "wrong", accept_disclaimers: ["other"] },
      });
      expectError(refused, 403, "auth.disclaimer.invalid", ["disclaimers_required"]);
      expect(refused.body.disclaimers_required).toEqual([terms]);

      const accepted = await call(withTerms.code, "checkpassword", {
        apiKey: withTerms.apiKey,
        token,
        body: { password: user.password, accept_disclaimers: ["terms"] },
      });
      expect(accepted.body.session_state).toBe("authorized");
      const again = await call(withTerms.code, "login", {
        apiKey: withTerms.apiKey,
        body: { login_id: user.loginName },
      });
      expect(again.body.disclaimers_required).toEqual([]);
    });
  });

  describe("session state", () => {
    it("answers auth.session.invalid with 409 for a token in another state", async () => {
      const user = await createUser(company, { password: null });
      const token = await startLogin(company, user.loginName);
      expectError(await checkpassword(token, { password: "x" }), 409, "auth.session.invalid");
    });

    it("answers auth.token.invalid for a token of another company", async () => {
      const other = await createCompany();
      const stranger = await createUser(other);
      const token = await startLogin(other, stranger.loginName);
      expectError(await checkpassword(token, { password: stranger.password }), 401, "auth.token.invalid");
    });
  });

  describe("request body", () => {
    it("answers request.validation.failed with 400 when password is missing or not a string", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      expectError(await checkpassword(token, {}), 400, "request.validation.failed");
      expectError(await checkpassword(token, { password: 1 }), 400, "request.validation.failed");
      expectError(
        await checkpassword(token, { password: "x", accept_disclaimers: "terms" }),
        400,
        "request.validation.failed",
      );
    });
  });
});
