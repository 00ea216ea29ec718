import { RecoveryMethod, UserStatus } from "@auth/proto/identity";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  compared,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  lastOtp,
  linkToken,
  mailLanguages,
  mailTo,
  passwordStep,
  smsTo,
  type TestCompany,
  type TestUser,
  type UserOptions,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const captcha = "dev-captcha-pass";
const linkBase = "https://app.example.com/recover";
const question = { controlQuestion: "Name of your first pet?", controlAnswer: "Rex the Dog" };

describe("access recovery", () => {
  let company: TestCompany;
  const post = (operation: string, body: Record<string, unknown>, token?: string, target = company) =>
    call(target.code, operation, { apiKey: target.apiKey, token, body });
  const recover = (loginId: string, method?: string, target = company) =>
    post(
      "recovery/recover",
      { login_id: loginId, captcha_response: captcha, ...(method ? { method } : {}) },
      undefined,
      target,
    );
  const newUser = (options: UserOptions = {}) => createUser(company, { ...question, ...options });

  beforeAll(async () => {
    company = await createCompany({
      passwordRegex: "[0-9]",
      passwordRegexDescription: "One digit at least",
      recovery: { order: [], disabled: [], disabledByRole: {}, linkBase },
    });
  });

  describe("auth/recovery/recover", () => {
    it("always needs a valid captcha, before anything tells whether the login ID exists", async () => {
      expectError(
        await post("recovery/recover", { login_id: "nobody", captcha_response: "robot" }),
        403,
        "auth.captcha.invalid",
      );
      expectError(await post("recovery/recover", { login_id: "nobody" }), 400, "request.validation.failed");
    });

    it("answers auth.loginid.notfound with 404 for an unknown login ID", async () => {
      expectError(await recover("nobody-here"), 404, "auth.loginid.notfound");
    });

    it.each([
      [UserStatus.RESTRICTED, "auth.user.restricted"],
      [UserStatus.CLOSED, "auth.user.closed"],
      [UserStatus.DENIED, "auth.user.denied"],
    ])("refuses a %s user with %s and 403", async (status, code) => {
      const user = await newUser({ status });
      expectError(await recover(user.loginName), 403, code);
    });

    it("method PHONE: sends an SMS OTP and starts recovery-checkotp with the masked phone", async () => {
      const user = await newUser();
      const response = await recover(user.loginName, "PHONE");
      expectSuccess(response, ["verification", "session_token", "session_state", "user_phone"]);
      expect(response.body).toMatchObject({
        verification: "PHONE",
        session_state: "recovery-checkotp",
        user_phone: `+1********${user.phone.slice(-2)}`,
      });
      expect(smsTo(company.id, user.phone).at(-1)).toMatch(/access recovery code is \d{6}/);
    });

    it("method QUESTION: starts recovery-checkquestion with the control question", async () => {
      const user = await newUser();
      const response = await recover(user.loginName, "QUESTION");
      expectSuccess(response, ["verification", "session_token", "session_state", "control_question"]);
      expect(response.body).toMatchObject({
        verification: "QUESTION",
        session_state: "recovery-checkquestion",
        control_question: question.controlQuestion,
      });
    });

    it("method MAIL: e-mails a link and returns no session, only the masked address", async () => {
      const user = await newUser();
      const response = await recover(user.loginName, "MAIL");
      expectSuccess(response, ["verification", "user_email"]);
      expect(response.body).toMatchObject({
        verification: "MAIL",
        user_email: `u${"*".repeat(user.email.indexOf("@") - 1)}@example.com`,
      });
      const [mail] = mailTo(company.id, user.email);
      expect(mail?.text).toContain(`${linkBase}?token=`);
    });

    it("method MAIL: has the e-mail worded in the request's language (docs/decisions.md, Languages)", async () => {
      const user = await newUser();
      await post("recovery/recover", {
        login_id: user.loginName,
        captcha_response: captcha,
        method: "MAIL",
        language: "fr-CA",
      });
      expect(mailLanguages(company, user)).toEqual(["fr"]);
    });

    it("chooses the first method of PHONE, MAIL, QUESTION the user has when none is asked for", async () => {
      expect((await recover((await newUser()).loginName)).body.verification).toBe("PHONE");
      expect((await recover((await newUser({ phone: null })).loginName)).body.verification).toBe("MAIL");
    });

    it.each([
      ["PHONE", { phone: null }, "recovery.phone.notset"],
      ["MAIL", { email: null }, "recovery.email.notset"],
      ["QUESTION", { controlQuestion: undefined, controlAnswer: undefined }, "recovery.question.notset"],
    ])("answers %s for a user without it with %s and 409", async (method, options, code) => {
      const user = await createUser(company, options);
      expectError(await recover(user.loginName, method), 409, code);
    });

    it("answers recovery.method.restricted with 403 for a method the company switched off", async () => {
      const strict = await createCompany({
        recovery: { order: [], disabled: [RecoveryMethod.QUESTION], disabledByRole: {}, linkBase },
      });
      const user = await createUser(strict, question);
      expectError(await recover(user.loginName, "QUESTION", strict), 403, "recovery.method.restricted");
    });

    it("answers request.validation.failed for an unknown method", async () => {
      expectError(await recover("x", "CARRIER_PIGEON"), 400, "request.validation.failed");
    });
  });

  describe("auth/recovery/checkotp", () => {
    async function phoneRecovery(): Promise<{ user: TestUser; token: string }> {
      const user = await newUser();
      return { user, token: String((await recover(user.loginName, "PHONE")).body.session_token) };
    }

    it("moves to recovery-setpassword with the password fields for the right OTP", async () => {
      const { user, token } = await phoneRecovery();
      const response = await post("recovery/checkotp", { otp: lastOtp(company.id, user.phone) }, token);
      expectSuccess(response, [
        "session_token",
        "session_state",
        "password_regex",
        "password_regex_description",
      ]);
      expect(response.body).toMatchObject({
        session_state: "recovery-setpassword",
        password_regex: "[0-9]",
        password_regex_description: expect.stringMatching(/\. One digit at least$/),
      });
    });

    it("answers auth.otp.invalid with 401 and burns the OTP", async () => {
      const { user, token } = await phoneRecovery();
      const otp = lastOtp(company.id, user.phone);
      expectError(
        await post("recovery/checkotp", { otp: otp === "000000" ? "111111" : "000000" }, token),
        401,
        "auth.otp.invalid",
      );
      expectError(await post("recovery/checkotp", { otp }, token), 401, "auth.otp.invalid");
    });

    it("answers auth.session.invalid with 409 for a question recovery's token", async () => {
      const user = await newUser();
      const token = String((await recover(user.loginName, "QUESTION")).body.session_token);
      expectError(await post("recovery/checkotp", { otp: "123456" }, token), 409, "auth.session.invalid");
    });
  });

  describe("auth/recovery/renewotp", () => {
    it("keeps to the resend cooldown (429 with Retry-After)", async () => {
      const user = await newUser();
      const token = String((await recover(user.loginName, "PHONE")).body.session_token);
      const response = await post("recovery/renewotp", {}, token);
      expectError(response, 429, "request.ratelimit.exceeded");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  describe("auth/recovery/checkquestion", () => {
    async function questionRecovery() {
      const user = await newUser();
      return { user, token: String((await recover(user.loginName, "QUESTION")).body.session_token) };
    }

    it("moves to recovery-setpassword for the answer, whatever its case and spacing", async () => {
      const { token } = await questionRecovery();
      const response = await post("recovery/checkquestion", { control_answer: "  rex   THE dog " }, token);
      expectSuccess(response, [
        "session_token",
        "session_state",
        "password_regex",
        "password_regex_description",
      ]);
      expect(response.body.session_state).toBe("recovery-setpassword");
    });

    it("answers auth.controlanswer.invalid with 401, and ends the session after 3 wrong answers", async () => {
      const { token } = await questionRecovery();
      for (let i = 0; i < 3; i += 1) {
        expectError(
          await post("recovery/checkquestion", { control_answer: "Fluffy" }, token),
          401,
          "auth.controlanswer.invalid",
        );
      }
      expectError(
        await post("recovery/checkquestion", { control_answer: question.controlAnswer }, token),
        401,
        "auth.token.invalid",
      );
    });

    it("does not take a phone recovery's token (docs/api-contract.md, Recovery)", async () => {
      const user = await newUser();
      const token = String((await recover(user.loginName, "PHONE")).body.session_token);
      expectError(
        await post("recovery/checkquestion", { control_answer: question.controlAnswer }, token),
        409,
        "auth.session.invalid",
      );
    });
  });

  describe("auth/recovery/checklink", () => {
    it("turns the e-mailed link into a recovery-setpassword session, once", async () => {
      const user = await newUser();
      await recover(user.loginName, "MAIL");
      const token = linkToken(mailTo(company.id, user.email).at(-1)?.text ?? "");
      const response = await post("recovery/checklink", { token });
      expectSuccess(response, [
        "session_token",
        "session_state",
        "password_regex",
        "password_regex_description",
      ]);
      expect(response.body.session_state).toBe("recovery-setpassword");
      expectError(await post("recovery/checklink", { token }), 401, "auth.token.invalid");
    });

    it("answers auth.token.invalid for an unknown link, and 400 without a token", async () => {
      expectError(await post("recovery/checklink", { token: "A".repeat(64) }), 401, "auth.token.invalid");
      expectError(await post("recovery/checklink", {}), 400, "request.validation.failed");
    });
  });

  describe("auth/setpassword in recovery-setpassword", () => {
    async function recoverySetpassword(user: TestUser): Promise<string> {
      const started = await recover(user.loginName, "QUESTION");
      const checked = await post(
        "recovery/checkquestion",
        { control_answer: question.controlAnswer },
        String(started.body.session_token),
      );
      return String(checked.body.session_token);
    }

    it("sets the password, returns no token, ends every session of the user, and the next login works", async () => {
      const user = await newUser({ password: "old-password-1" });
      const earlier = String((await passwordStep(company, user)).body.session_token);
      const token = await recoverySetpassword(user);
      expectSuccess(await post("setpassword", { new_password: "recovered-password-2" }, token), []);
      expectError(
        await call(company.code, "logout", { apiKey: company.apiKey, token: earlier }),
        401,
        "auth.token.invalid",
      );
      expectError(
        await post("setpassword", { new_password: "another-password-3" }, token),
        401,
        "auth.token.invalid",
      );
      const login = await post("checkcredentials", {
        login_id: user.loginName,
        password: "recovered-password-2",
      });
      expect(login.body.session_state).toBe("authorized");
    });

    it("is no oracle of the old password: set again, it is answered as a wrong guess is, and nothing is compared", async () => {
      const [owner, other] = [await newUser(), await newUser()];
      const [ownerToken, otherToken] = [await recoverySetpassword(owner), await recoverySetpassword(other)];
      const before = await compared("password");
      const again = await post("setpassword", { new_password: owner.password }, ownerToken);
      const guess = await post("setpassword", { new_password: "a wrong guess of it 1" }, otherToken);
      expect((await compared("password")) - before).toBe(0);
      expect({ status: again.status, body: again.body }).toEqual({ status: guess.status, body: guess.body });
      expectSuccess(again, []);
      expect(
        (await post("checkcredentials", { login_id: owner.loginName, password: owner.password })).body
          .session_state,
      ).toBe("authorized");
    });

    it("does not tell the old password's rule in recovery-setpassword", async () => {
      const started = await recover((await newUser()).loginName, "QUESTION");
      const checked = await post(
        "recovery/checkquestion",
        { control_answer: question.controlAnswer },
        String(started.body.session_token),
      );
      expect(checked.body.password_regex_description).not.toMatch(/current password/);
    });

    it("keeps the company's password policy: 422 for a weak password, and the session may try another", async () => {
      const user = await newUser();
      const token = await recoverySetpassword(user);
      const weak = await post("setpassword", { new_password: "no-digits-here-at-all" }, token);
      expectError(weak, 422, "request.validation.failed", ["password_regex_description"]);
      expect(weak.body.password_regex_description).toBe("One digit at least");
      expectSuccess(await post("setpassword", { new_password: "a-stronger-password-4" }, token), []);
    });
  });
});
