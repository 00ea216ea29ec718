import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createUser,
  enrolAuthenticator,
  expectError,
  expectSuccess,
  lastOtp,
  startLogin,
  type TestCompany,
  type TestUser,
  totpCode,
  type UserOptions,
  updateCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

describe("auth/setpassword", () => {
  let company: TestCompany;

  beforeAll(async () => {
    company = await createCompany({ passwordRegex: "[0-9]", passwordRegexDescription: "At least one digit" });
  });

  /** A session in state setpassword: the user's password must be changed. */
  async function setpasswordSession(): Promise<{ user: TestUser; token: string }> {
    const user = await createUser(company, { password: "initial-password-1", passwordChangeRequired: true });
    const response = await call(company.code, "checkcredentials", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName, password: user.password },
    });
    expect(response.body.session_state).toBe("setpassword");
    return { user, token: String(response.body.session_token) };
  }
  const setpassword = (token: string, body: Record<string, unknown>) =>
    call(company.code, "setpassword", { apiKey: company.apiKey, token, body });

  describe("rule 1 / transition setpassword -> authorized", () => {
    it("returns a new token in state authorized with profile_mnemocode", async () => {
      const { user, token } = await setpasswordSession();
      const response = await setpassword(token, { new_password: "brand-new-password-2" });
      expectSuccess(response, ["session_token", "session_state", "profile_mnemocode"]);
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
      expect(response.body.session_token).not.toBe(token);
      expectError(
        await setpassword(token, { new_password: "another-password-3" }),
        401,
        "auth.token.invalid",
      );
    });

    it("makes the new password the one that logs in, with no further change asked", async () => {
      const { user, token } = await setpasswordSession();
      await setpassword(token, { new_password: "brand-new-password-2" });
      const login = (password: string) =>
        call(company.code, "checkcredentials", {
          apiKey: company.apiKey,
          body: { login_id: user.loginName, password },
        });
      expect((await login("brand-new-password-2")).body.session_state).toBe("authorized");
      expectError(await login("initial-password-1"), 401, "auth.credentials.invalid", ["captcha_required"]);
    });
  });

  describe("rule 3: a too weak new password", () => {
    const length = "At least 15 and at most 256 characters.";
    const common = "Not a common or breached password.";
    const context =
      "Not containing the company's name or code, nor your login name, the name of your e-mail or your phone number.";
    it.each([
      ["shorter than 15 characters, the user having no second factor", () => "kettle-kettle1", length],
      ["longer than 256 characters", () => `${"a".repeat(256)}1`, length],
      ["on the blocklist of common passwords", () => "1qaz2wsx3edc4rfv", common],
      ["on the blocklist in another case", () => "1QAZ2WSX3EDC4RFV", common],
      [
        "containing the user's login name",
        (user: TestUser) => `kettle-${user.loginName.toUpperCase()}-9`,
        context,
      ],
      ["containing the company's code", () => `kettle-${company.code}-9`, context],
      ["not matching the company's password_regex", () => "no-digits-at-all-here", "At least one digit"],
      ["the same as the current one", () => "initial-password-1", "Not the current password."],
    ])(
      "is refused with request.validation.failed and 422 when %s, naming the rule, and the session stays",
      async (_, newPassword, rule) => {
        const { user, token } = await setpasswordSession();
        const refused = await setpassword(token, { new_password: newPassword(user) });
        expectError(refused, 422, "request.validation.failed", ["password_regex_description"]);
        expect(refused.body.password_regex_description).toBe(rule);
        expect((await setpassword(token, { new_password: "acceptable-password-9" })).body.session_state).toBe(
          "authorized",
        );
      },
    );

    it("asks 8 characters of a user with a second factor, and says so in state setpassword", async () => {
      const user = await createUser(company, {
        password: "initial-password-1",
        passwordChangeRequired: true,
        secondFactorRequired: true,
      });
      const login = await call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password: user.password },
      });
      const otp = await call(company.code, "checkotp", {
        apiKey: company.apiKey,
        token: String(login.body.session_token),
        body: { otp: lastOtp(company.id, user.phone) },
      });
      expect(otp.body).toMatchObject({
        session_state: "setpassword",
        password_regex_description: expect.stringMatching(/^At least 8 and at most 256 characters\. /),
      });
      const token = String(otp.body.session_token);
      const short = await setpassword(token, { new_password: "kettle7" });
      expectError(short, 422, "request.validation.failed", ["password_regex_description"]);
      expect(short.body.password_regex_description).toBe("At least 8 and at most 256 characters.");
      expect((await setpassword(token, { new_password: "kettle78" })).body.session_state).toBe("authorized");
    });

    it.each<[string, UserOptions, boolean]>([
      ["with the flag", { secondFactorRequired: true }, false],
      ["of a role that needs a second factor", { role: "staff" }, false],
      ["with an authenticator app", {}, true],
    ])(
      "tells a user %s the least length identity enforces, 8: what is told and what is refused come from one answer",
      async (_, options, withApp) => {
        const target = await createCompany({ twoFactorRoles: ["staff"] });
        const user = await createUser(target, { password: "initial password without digits", ...options });
        const secret = withApp ? await enrolAuthenticator(target, user) : undefined;
        // A digit is now asked: the login that follows must set a new password.
        await updateCompany(target, {
          policy: { passwordRegex: "[0-9]", passwordRegexDescription: "A digit." },
        });
        const login = await call(target.code, "checkcredentials", {
          apiKey: target.apiKey,
          body: { login_id: user.loginName, password: user.password },
        });
        expect(login.body.session_state, JSON.stringify(login.body)).toBe("checkotp");
        const otp = await call(target.code, "checkotp", {
          apiKey: target.apiKey,
          token: String(login.body.session_token),
          body: { otp: secret ? await totpCode(secret, 1) : lastOtp(target.id, user.phone) },
        });
        expect(otp.body).toMatchObject({
          session_state: "setpassword",
          password_regex_description: expect.stringMatching(/^At least 8 and at most 256 characters\. /),
        });
        const token = String(otp.body.session_token);
        const post = (new_password: string) =>
          call(target.code, "setpassword", { apiKey: target.apiKey, token, body: { new_password } });
        const short = await post("kettle7");
        expectError(short, 422, "request.validation.failed", ["password_regex_description"]);
        expect(short.body.password_regex_description).toBe("At least 8 and at most 256 characters.");
        expect((await post("kettle78")).body.session_state).toBe("authorized");
      },
    );

    it("accepts 64 characters and more", async () => {
      const { user, token } = await setpasswordSession();
      const long = `${"violet kettle under the bridge ".repeat(3).slice(0, 69)}9`;
      expect((await setpassword(token, { new_password: long })).body.session_state).toBe("authorized");
      const login = await call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password: long },
      });
      expect(login.body.session_state).toBe("authorized");
    });
  });

  describe("session state", () => {
    it("answers auth.session.invalid with 409 for a token in state checkpassword", async () => {
      const user = await createUser(company);
      const token = await startLogin(company, user.loginName);
      expectError(
        await setpassword(token, { new_password: "acceptable-password-9" }),
        409,
        "auth.session.invalid",
      );
    });
  });

  describe("request body", () => {
    it("answers request.validation.failed with 400 when new_password is missing or not a string", async () => {
      const { token } = await setpasswordSession();
      expectError(await setpassword(token, {}), 400, "request.validation.failed");
      expectError(await setpassword(token, { new_password: 12345678 }), 400, "request.validation.failed");
    });
  });
});
