import { LoginIdKind, UserStatus } from "@auth/proto/identity";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  expectError,
  expectSuccess,
  smsLanguages,
  smsTo,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

describe("auth/login", () => {
  let company: TestCompany;
  const login = (loginId: unknown) =>
    call(company.code, "login", { apiKey: company.apiKey, body: { login_id: loginId } });

  beforeAll(async () => {
    company = await createCompany();
  });

  describe("rule 5: a user with a password", () => {
    it("gets a token in state checkpassword, with disclaimers_required and captcha_required", async () => {
      const user = await createUser(company);
      const response = await login(user.loginName);
      expectSuccess(response, ["session_token", "session_state", "disclaimers_required", "captcha_required"]);
      expect(response.body).toMatchObject({
        session_state: "checkpassword",
        disclaimers_required: [],
        captcha_required: false,
      });
      expect(response.body.session_token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    });
  });

  describe("rule 6: a user without a password", () => {
    it("gets a token in state checkotp with the masked phone, and an SMS OTP", async () => {
      const user = await createUser(company, { password: null });
      const response = await login(user.loginName);
      expectSuccess(response, ["session_token", "session_state", "disclaimers_required", "user_phone"]);
      expect(response.body.session_state).toBe("checkotp");
      expect(response.body.user_phone).toBe(`+1********${user.phone.slice(-2)}`);
      expect(smsTo(company.id, user.phone)).toHaveLength(1);
    });

    it("has the SMS worded in the request's language (docs/decisions.md, Languages)", async () => {
      const user = await createUser(company, { password: null });
      await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName },
        headers: { "accept-language": "de-AT, fr;q=0.8" },
      });
      expect(smsLanguages(company, user)).toEqual(["de"]);
    });
  });

  describe("login ID", () => {
    it("finds the user by e-mail in any case, by phone in national format and by login name", async () => {
      const user = await createUser(company);
      for (const loginId of [
        user.email.toUpperCase(),
        ` ${user.loginName} `,
        user.phone,
        user.phone.slice(2),
      ]) {
        expect((await login(loginId)).body.session_state, loginId).toBe("checkpassword");
      }
    });

    it("is not found when the company does not let the user's role use that kind of login ID", async () => {
      const strict = await createCompany({
        loginIdKindsByRole: { staff: { kinds: [LoginIdKind.LOGIN_NAME] } },
      });
      const user = await createUser(strict, { role: "staff" });
      const byEmail = await call(strict.code, "login", {
        apiKey: strict.apiKey,
        body: { login_id: user.email },
      });
      expectError(byEmail, 404, "auth.loginid.notfound");
      const byName = await call(strict.code, "login", {
        apiKey: strict.apiKey,
        body: { login_id: user.loginName },
      });
      expect(byName.body.session_state).toBe("checkpassword");
    });
  });

  describe("rule 1: no profile for the login ID", () => {
    it("answers auth.loginid.notfound with 404", async () => {
      expectError(await login("nobody@example.com"), 404, "auth.loginid.notfound");
    });

    it("does not find a user of another company", async () => {
      const other = await createCompany();
      const stranger = await createUser(other);
      expectError(await login(stranger.loginName), 404, "auth.loginid.notfound");
    });
  });

  describe("rules 2 to 4: the user's status", () => {
    it.each([
      [UserStatus.RESTRICTED, "auth.user.restricted"],
      [UserStatus.CLOSED, "auth.user.closed"],
      [UserStatus.DENIED, "auth.user.denied"],
    ])("a %s user gets %s with 403", async (status, code) => {
      const user = await createUser(company, { status });
      expectError(await login(user.loginName), 403, code);
    });
  });

  describe("rule 7: disclaimers to accept", () => {
    it("lists the company's disclaimers in disclaimers_required", async () => {
      const withTerms = await createCompany();
      const terms = await createDisclaimer(withTerms, "terms");
      const privacy = await createDisclaimer(withTerms, "privacy");
      const user = await createUser(withTerms);
      const response = await call(withTerms.code, "login", {
        apiKey: withTerms.apiKey,
        body: { login_id: user.loginName },
      });
      expect(response.body.disclaimers_required).toEqual([privacy, terms]);
    });
  });

  describe("request body", () => {
    it.each([
      ["missing", {}],
      ["not a string", { login_id: 42 }],
      ["empty", { login_id: "" }],
      ["null", { login_id: null }],
    ])("answers request.validation.failed with 400 when login_id is %s", async (_, body) => {
      expectError(
        await call(company.code, "login", { apiKey: company.apiKey, body }),
        400,
        "request.validation.failed",
      );
    });
  });
});
