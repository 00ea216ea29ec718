import { randomPhone } from "@auth/identity/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { freshAuthenticationSeconds } from "../steps/factor-change.js";
import {
  call,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  lastOtp,
  mailTo,
  noticesTo,
  smsTo,
  type TestCompany,
  type TestUser,
  type UserOptions,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

const linkBase = "https://app.example.com/recover";

/** The token of the link in an e-mail, under its query parameter. */
function tokenIn(text: string, query: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  return (link && new URL(link).searchParams.get(query)) ?? "";
}

/** docs/api-contract.md, "Changing the phone or the e-mail". */
describe("changing the phone or the e-mail while signed in", () => {
  let company: TestCompany;
  const post = (operation: string, body: Record<string, unknown> = {}, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });

  beforeAll(async () => {
    company = await createCompany({
      recoveryMessagesPerHour: 3,
      recovery: { order: [], disabled: [], disabledByRole: {}, linkBase },
    });
  });

  /** A new user signed in with the password: the user and the token of a fresh session. */
  async function signedIn(options: UserOptions = {}): Promise<{ user: TestUser; token: string }> {
    const user = await createUser(company, options);
    const answer = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(answer.body.session_state, JSON.stringify(answer.body)).toBe("authorized");
    return { user, token: String(answer.body.session_token) };
  }

  describe("auth/phone/change", () => {
    it("sends a code to the new phone only, answers it masked, and changes nothing yet", async () => {
      const { user, token } = await signedIn();
      const phone = randomPhone();
      const answer = await post("phone/change", { phone }, token);
      expectSuccess(answer, ["user_phone"]);
      expect(answer.body.user_phone).toBe(`+1********${phone.slice(-2)}`);
      expect(smsTo(company.id, phone).at(-1)).toMatch(/confirm this phone number for your account is \d{6}/);
      expect(smsTo(company.id, user.phone)).toEqual([]);
      // The old phone still signs the user in: nothing changed before the code comes back.
      const byOld = await post("checkcredentials", { login_id: user.phone, password: user.password });
      expect(byOld.body.session_state).toBe("authorized");
    });

    it("asks for a fresh authentication: 403 auth.reauthentication.required 10 minutes after it", async () => {
      const { token } = await signedIn();
      suite().clock.advance((freshAuthenticationSeconds + 1) * 1000);
      expectError(
        await post("phone/change", { phone: randomPhone() }, token),
        403,
        "auth.reauthentication.required",
      );
    });

    it("refuses another user's phone with 409 auth.contact.unavailable, never saying whose", async () => {
      const other = await createUser(company);
      const { token } = await signedIn();
      const refused = await post("phone/change", { phone: other.phone }, token);
      expectError(refused, 409, "auth.contact.unavailable");
      expect(JSON.stringify(refused.body)).not.toContain(other.loginName);
      expect(JSON.stringify(refused.body)).not.toContain(other.id);
      expect(smsTo(company.id, other.phone)).toEqual([]);
    });

    it("refuses the user's own phone with 400, and a number that is none", async () => {
      const { user, token } = await signedIn();
      expectError(await post("phone/change", { phone: user.phone }, token), 400, "request.validation.failed");
      expectError(await post("phone/change", { phone: "12" }, token), 400, "request.validation.failed");
    });

    it("spends one of the user's recovery messages per code: beyond them 429 with Retry-After", async () => {
      const { user, token } = await signedIn();
      const phone = randomPhone();
      // Two recovery codes and the change's code spend the company's three.
      for (let i = 0; i < 2; i += 1) {
        const recovery = await post("recovery/recover", {
          login_id: user.loginName,
          captcha_response: "dev-captcha-pass",
          method: "PHONE",
        });
        expectSuccess(recovery, ["verification", "session_token", "session_state", "user_phone"]);
      }
      expectSuccess(await post("phone/change", { phone }, token), ["user_phone"]);
      suite().clock.advance(31_000);
      const refused = await post("phone/change", { phone }, token);
      expectError(refused, 429, "request.ratelimit.exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(smsTo(company.id, phone)).toHaveLength(1);
    });
  });

  describe("auth/phone/confirm", () => {
    it("a wrong code is 401 auth.otp.invalid and burns the code: the right one fails after it", async () => {
      const { user, token } = await signedIn();
      const phone = randomPhone();
      await post("phone/change", { phone }, token);
      const code = lastOtp(company.id, phone);
      expectError(
        await post("phone/confirm", { code: code === "000000" ? "111111" : "000000" }, token),
        401,
        "auth.otp.invalid",
      );
      expectError(await post("phone/confirm", { code }, token), 401, "auth.otp.invalid");
      const byNew = await post("checkcredentials", { login_id: phone, password: user.password });
      expect([byNew.status, byNew.body.error_code]).toEqual([401, "auth.credentials.invalid"]);
    });

    it("with nothing pending is 401 auth.otp.invalid", async () => {
      const { token } = await signedIn();
      expectError(await post("phone/confirm", { code: "123456" }, token), 401, "auth.otp.invalid");
    });

    it("a right code makes the new phone the user's, tells the old phone and the e-mail, and recovery uses the new one", async () => {
      const { user, token } = await signedIn();
      const phone = randomPhone();
      await post("phone/change", { phone }, token);
      expectSuccess(await post("phone/confirm", { code: lastOtp(company.id, phone) }, token), []);
      // identity tells the old phone by SMS, with a copy to the e-mail, once the answer is given.
      await expect
        .poll(() => smsTo(company.id, user.phone), { timeout: 20_000 })
        .toEqual([expect.stringMatching(/phone number of your account was changed/)]);
      await expect
        .poll(() => noticesTo(company.id, user.email), { timeout: 20_000 })
        .toEqual([expect.stringMatching(/^The phone number of your .* account was changed$/)]);
      const byNew = await post("checkcredentials", { login_id: phone, password: user.password });
      expect(byNew.body.session_state).toBe("authorized");
      const byOld = await post("checkcredentials", { login_id: user.phone, password: user.password });
      expect([byOld.status, byOld.body.error_code]).toEqual([401, "auth.credentials.invalid"]);
      const recovery = await post("recovery/recover", {
        login_id: user.loginName,
        captcha_response: "dev-captcha-pass",
        method: "PHONE",
      });
      expect(recovery.body.user_phone).toBe(`+1********${phone.slice(-2)}`);
      expect(smsTo(company.id, phone).at(-1)).toMatch(/access recovery code is \d{6}/);
    });

    it("ends the user's other sessions when the phone was the SMS factor of the user's logins, and keeps this one", async () => {
      const { user, token } = await signedIn();
      const other = await post("checkcredentials", { login_id: user.loginName, password: user.password });
      const phone = randomPhone();
      await post("phone/change", { phone }, token);
      expectSuccess(await post("phone/confirm", { code: lastOtp(company.id, phone) }, token), []);
      expectError(await post("sessions", {}, String(other.body.session_token)), 401, "auth.token.invalid");
      expectSuccess(await post("sessions", {}, token), ["sessions"]);
    });

    it("of two users racing for one phone, one gets it and the other 409 auth.contact.unavailable", async () => {
      const [first, second] = [await signedIn(), await signedIn()];
      const phone = randomPhone();
      await post("phone/change", { phone }, first.token);
      const firstCode = lastOtp(company.id, phone);
      await post("phone/change", { phone }, second.token);
      const secondCode = lastOtp(company.id, phone);
      const answers = await Promise.all([
        post("phone/confirm", { code: firstCode }, first.token),
        post("phone/confirm", { code: secondCode }, second.token),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body.error_code).toBe(
        "auth.contact.unavailable",
      );
    });
  });

  describe("auth/email/change", () => {
    it("e-mails a link to the new address only, answers it masked, and changes nothing yet", async () => {
      const { user, token } = await signedIn();
      const email = `new-${user.loginName}@example.org`;
      const answer = await post("email/change", { email: ` ${email.toUpperCase()} ` }, token);
      expectSuccess(answer, ["user_email"]);
      expect(answer.body.user_email).toBe(`n${"*".repeat(email.indexOf("@") - 1)}@example.org`);
      const [mail] = mailTo(company.id, email);
      expect(mail?.subject).toMatch(/^Confirm your new e-mail address/);
      expect(mail?.text).toContain(`${linkBase}?email_token=`);
      expect(mailTo(company.id, user.email)).toEqual([]);
    });

    it("refuses another user's e-mail with 409 auth.contact.unavailable, and the user's own with 400", async () => {
      const other = await createUser(company);
      const { user, token } = await signedIn();
      const refused = await post("email/change", { email: other.email }, token);
      expectError(refused, 409, "auth.contact.unavailable");
      expect(JSON.stringify(refused.body)).not.toContain(other.loginName);
      expectError(await post("email/change", { email: user.email }, token), 400, "request.validation.failed");
      expect(mailTo(company.id, other.email)).toEqual([]);
    });

    it("asks for a fresh authentication: 403 auth.reauthentication.required 10 minutes after it", async () => {
      const { token } = await signedIn();
      suite().clock.advance((freshAuthenticationSeconds + 1) * 1000);
      expectError(
        await post("email/change", { email: "late@example.org" }, token),
        403,
        "auth.reauthentication.required",
      );
    });

    it("refuses with 409 recovery.email.notset in a company without a recovery page: the link has nowhere to go", async () => {
      const bare = await createCompany();
      const user = await createUser(bare);
      const answer = await call(bare.code, "checkcredentials", {
        apiKey: bare.apiKey,
        body: { login_id: user.loginName, password: user.password },
      });
      const refused = await call(bare.code, "email/change", {
        apiKey: bare.apiKey,
        token: String(answer.body.session_token),
        body: { email: "somewhere@example.org" },
      });
      expectError(refused, 409, "recovery.email.notset");
    });
  });

  describe("auth/email/confirm", () => {
    /** A user who asked for a new e-mail: the user, the new address and the link's token. */
    async function changing(): Promise<{ user: TestUser; email: string; emailToken: string }> {
      const { user, token } = await signedIn();
      const email = `new-${user.loginName}@example.org`;
      expectSuccess(await post("email/change", { email }, token), ["user_email"]);
      return {
        user,
        email,
        emailToken: tokenIn(mailTo(company.id, email).at(-1)?.text ?? "", "email_token"),
      };
    }

    it("with the API key alone makes the new e-mail the user's, once; the old one is told, and recovery mails the new", async () => {
      const { user, email, emailToken } = await changing();
      expectSuccess(await post("email/confirm", { token: emailToken }), []);
      expectError(await post("email/confirm", { token: emailToken }), 401, "auth.token.invalid");
      await expect
        .poll(() => noticesTo(company.id, user.email), { timeout: 20_000 })
        .toEqual([expect.stringMatching(/^The e-mail address of your .* account was changed$/)]);
      const byNew = await post("checkcredentials", { login_id: email, password: user.password });
      expect(byNew.body.session_state).toBe("authorized");
      const recovery = await post("recovery/recover", {
        login_id: user.loginName,
        captcha_response: "dev-captcha-pass",
        method: "MAIL",
      });
      expectSuccess(recovery, ["verification", "user_email"]);
      expect(tokenIn(mailTo(company.id, email).at(-1)?.text ?? "", "token")).not.toBe("");
      expect(mailTo(company.id, user.email)).toEqual([]);
    });

    it("an old link is 401 auth.token.expired, and nothing changes", async () => {
      const { user, emailToken } = await changing();
      suite().clock.advance(16 * 60_000);
      expectError(await post("email/confirm", { token: emailToken }), 401, "auth.token.expired");
      const byOld = await post("checkcredentials", { login_id: user.email, password: user.password });
      expect(byOld.body.session_state).toBe("authorized");
    });

    it("a recovery link is no e-mail change's: 401 auth.token.invalid", async () => {
      const user = await createUser(company);
      await post("recovery/recover", {
        login_id: user.loginName,
        captcha_response: "dev-captcha-pass",
        method: "MAIL",
      });
      const recoveryToken = tokenIn(mailTo(company.id, user.email).at(-1)?.text ?? "", "token");
      expectError(await post("email/confirm", { token: recoveryToken }), 401, "auth.token.invalid");
      expectError(await post("email/confirm", { token: "nonsense" }), 401, "auth.token.invalid");
    });

    it("of two users racing for one e-mail, one gets it and the other 409 auth.contact.unavailable", async () => {
      const [first, second] = [await signedIn(), await signedIn()];
      const email = `race-${first.user.loginName}@example.org`;
      await post("email/change", { email }, first.token);
      await post("email/change", { email }, second.token);
      const tokens = mailTo(company.id, email).map((mail) => tokenIn(mail.text, "email_token"));
      expect(tokens).toHaveLength(2);
      const answers = await Promise.all(tokens.map((token) => post("email/confirm", { token })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body.error_code).toBe(
        "auth.contact.unavailable",
      );
    });
  });
});
