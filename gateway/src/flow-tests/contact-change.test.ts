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
  noticesTo,
  smsTo,
  type TestCompany,
  type TestUser,
  type UserOptions,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

/** docs/api-contract.md, "Changing the phone or the e-mail". */
describe("changing the phone or the e-mail while signed in", () => {
  let company: TestCompany;
  const post = (operation: string, body: Record<string, unknown> = {}, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });

  beforeAll(async () => {
    company = await createCompany({ recoveryMessagesPerHour: 3 });
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
      expectError(await post("phone/change", { phone: randomPhone() }, token), 403, "auth.reauthentication.required");
    });

    it("refuses another user's phone, e-mail or login name with 409 auth.contact.unavailable, never saying whose", async () => {
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
      expectError(await post("phone/confirm", { code: code === "000000" ? "111111" : "000000" }, token), 401, "auth.otp.invalid");
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
      expect(answers.find((answer) => answer.status === 409)?.body.error_code).toBe("auth.contact.unavailable");
    });
  });
});
