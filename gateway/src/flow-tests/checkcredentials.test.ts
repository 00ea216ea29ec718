import { UserStatus } from "@auth/proto/identity";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  expectError,
  expectSuccess,
  smsTo,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const devCaptcha = "dev-captcha-pass";

describe("auth/checkcredentials", () => {
  let company: TestCompany;
  const checkcredentials = (body: Record<string, unknown>, target = company) =>
    call(target.code, "checkcredentials", { apiKey: target.apiKey, body });

  beforeAll(async () => {
    company = await createCompany();
  });

  describe("transition (none) -> authorized: nothing further required", () => {
    it("returns a token in state authorized with profile_mnemocode", async () => {
      const user = await createUser(company);
      const response = await checkcredentials({ login_id: user.email, password: user.password });
      expectSuccess(response, ["session_token", "session_state", "profile_mnemocode"]);
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });
  });

  describe("transition (none) -> checkotp: second factor required", () => {
    it("returns state checkotp with user_phone and sends the OTP", async () => {
      const user = await createUser(company, { secondFactorRequired: true });
      const response = await checkcredentials({ login_id: user.loginName, password: user.password });
      expectSuccess(response, ["session_token", "session_state", "user_phone"]);
      expect(response.body.session_state).toBe("checkotp");
      expect(smsTo(company.id, user.phone)).toHaveLength(1);
    });
  });

  describe("transition (none) -> setpassword: new password must be set", () => {
    it("returns state setpassword with the password fields", async () => {
      const user = await createUser(company, { passwordChangeRequired: true });
      const response = await checkcredentials({ login_id: user.loginName, password: user.password });
      expectSuccess(response, [
        "session_token",
        "session_state",
        "password_regex",
        "password_regex_description",
      ]);
      expect(response.body.session_state).toBe("setpassword");
    });
  });

  describe("rule 1: wrong login ID or password", () => {
    it("answers auth.credentials.invalid with 401 and captcha_required for a wrong password", async () => {
      const user = await createUser(company);
      const response = await checkcredentials({ login_id: user.loginName, password: "wrong password" });
      expectError(response, 401, "auth.credentials.invalid", ["captcha_required"]);
      expect(response.body.captcha_required).toBe(false);
    });

    it("answers an unknown login ID exactly like a wrong password", async () => {
      const response = await checkcredentials({ login_id: "nobody-at-all", password: "wrong password" });
      expectError(response, 401, "auth.credentials.invalid", ["captcha_required"]);
      expect(response.body.captcha_required).toBe(false);
    });
  });

  describe("rule 2: captcha after 3 failed attempts", () => {
    it("requires a valid captcha_response once the login ID has failed 3 times, known or not", async () => {
      for (const loginId of [(await createUser(company)).loginName, "unknown-captcha"]) {
        const flags = [];
        for (let i = 0; i < 3; i += 1)
          flags.push((await checkcredentials({ login_id: loginId, password: "x" })).body.captcha_required);
        expect(flags).toEqual([false, false, true]);
        expectError(
          await checkcredentials({ login_id: loginId, password: "x" }),
          403,
          "auth.captcha.missing",
          ["captcha_required"],
        );
        expectError(
          await checkcredentials({ login_id: loginId, password: "x", captcha_response: "no" }),
          403,
          "auth.captcha.invalid",
          ["captcha_required"],
        );
      }
    });

    it("lets the right credentials through with a valid captcha", async () => {
      const user = await createUser(company);
      for (let i = 0; i < 3; i += 1) await checkcredentials({ login_id: user.loginName, password: "x" });
      const response = await checkcredentials({
        login_id: user.loginName,
        password: user.password,
        captcha_response: devCaptcha,
      });
      expect(response.body.session_state).toBe("authorized");
    });
  });

  describe("rule 3: disclaimers", () => {
    it("are checked after the credentials: a wrong password says nothing about them", async () => {
      const withTerms = await createCompany();
      const terms = await createDisclaimer(withTerms, "terms");
      const user = await createUser(withTerms);
      expectError(
        await checkcredentials({ login_id: user.loginName, password: "wrong" }, withTerms),
        401,
        "auth.credentials.invalid",
        ["captcha_required"],
      );
      const missing = await checkcredentials(
        { login_id: user.loginName, password: user.password },
        withTerms,
      );
      expectError(missing, 403, "auth.disclaimer.invalid", ["disclaimers_required"]);
      expect(missing.body.disclaimers_required).toEqual([terms]);
      const accepted = await checkcredentials(
        { login_id: user.loginName, password: user.password, accept_disclaimers: ["terms"] },
        withTerms,
      );
      expect(accepted.body.session_state).toBe("authorized");
    });
  });

  describe("rule 4: the user's status", () => {
    it.each([
      [UserStatus.RESTRICTED, "auth.user.restricted"],
      [UserStatus.CLOSED, "auth.user.closed"],
      [UserStatus.DENIED, "auth.user.denied"],
    ])("a %s user with the right password gets %s with 403", async (status, code) => {
      const user = await createUser(company, { status });
      expectError(await checkcredentials({ login_id: user.loginName, password: user.password }), 403, code);
    });

    it("is not revealed to someone without the password", async () => {
      const user = await createUser(company, { status: UserStatus.CLOSED });
      expectError(
        await checkcredentials({ login_id: user.loginName, password: "wrong" }),
        401,
        "auth.credentials.invalid",
        ["captcha_required"],
      );
    });
  });

  describe("request body", () => {
    it.each([
      ["login_id is missing", { password: "x" }],
      ["password is missing", { login_id: "x" }],
      ["password is not a string", { login_id: "x", password: ["x"] }],
    ])("answers request.validation.failed with 400 when %s", async (_, body) => {
      expectError(await checkcredentials(body), 400, "request.validation.failed");
    });
  });
});
