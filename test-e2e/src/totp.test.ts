import { beforeAll, describe, expect, it } from "vitest";
import { call, expectError, expectSuccess } from "./support/api.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { smsTo } from "./support/outbox.js";
import { enrolAuthenticator, totpCode } from "./support/totp.js";

/**
 * docs/decisions.md, "TOTP": an authenticator app as the second factor beside SMS. It is enrolled
 * through an authorized session; the user's next logins go to the spec's checkotp without an SMS
 * and without `user_phone`, and checkotp's `otp` takes the app's code, each code once, under the
 * same budget as SMS OTPs.
 */
describe("an authenticator app (TOTP) as the second factor", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });

  const post = (operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  const logIn = async (user: TestUser) => {
    const answer = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(answer.body.status, JSON.stringify(answer.body)).toBe("success");
    return answer;
  };
  const authorizedToken = async (user: TestUser) => {
    const answer = await logIn(user);
    expect(answer.body.session_state).toBe("authorized");
    return String(answer.body.session_token);
  };
  /** A user with an authenticator app, and its secret. */
  async function enrolledUser(): Promise<{ user: TestUser; secret: string }> {
    const user = await createUser(company);
    return { user, secret: await enrolAuthenticator(post, await authorizedToken(user)) };
  }

  describe("enrolment (auth/totp/enrol, auth/totp/confirm)", () => {
    it("gives an otpauth URI in an authorized session, and a code of it confirms it", async () => {
      const user = await createUser(company);
      const token = await authorizedToken(user);
      const enrol = await post("totp/enrol", {}, token);
      expectSuccess(enrol, ["otpauth_uri", "secret"]);
      const uri = new URL(String(enrol.body.otpauth_uri));
      expect(uri.protocol).toBe("otpauth:");
      expect(uri.searchParams.get("secret")).toBe(enrol.body.secret);
      const code = await totpCode(String(enrol.body.secret));
      expectError(
        await post("totp/confirm", { code: code === "000000" ? "111111" : "000000" }, token),
        401,
        "auth.otp.invalid",
      );
      expectSuccess(await post("totp/confirm", { code }, token), ["sessions_ended"]);
    });

    it("ends the user's other sessions, and this one goes on", async () => {
      const user = await createUser(company);
      const [mine, other] = [await authorizedToken(user), await authorizedToken(user)];
      const enrol = await post("totp/enrol", {}, mine);
      const confirm = await post("totp/confirm", { code: await totpCode(String(enrol.body.secret)) }, mine);
      expect(confirm.body.sessions_ended).toBe(1);
      expectError(await post("sessions", {}, other), 401, "auth.token.invalid");
      expectSuccess(await post("sessions", {}, mine), ["sessions"]);
    });

    it("is refused outside an authorized session", async () => {
      const user = await createUser(company, { secondFactorRequired: true });
      const atOtp = await logIn(user);
      expect(atOtp.body.session_state).toBe("checkotp");
      expectError(
        await post("totp/enrol", {}, String(atOtp.body.session_token)),
        409,
        "auth.session.invalid",
      );
    });
  });

  describe("login", () => {
    it("goes to checkotp without an SMS and without user_phone, and the app's code authorizes it", async () => {
      const { user, secret } = await enrolledUser();
      const smsBefore = smsTo(company.id, user.phone).length;
      const atOtp = await logIn(user);
      expectSuccess(atOtp, ["session_token", "session_state"]);
      expect(atOtp.body.session_state).toBe("checkotp");
      const token = String(atOtp.body.session_token);
      expectSuccess(await post("renewotp", {}, token), []);
      expect(smsTo(company.id, user.phone)).toHaveLength(smsBefore);
      const checked = await post("checkotp", { otp: await totpCode(secret, 1) }, token);
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
    });

    it("takes each code once: the same code at another login is auth.otp.invalid", async () => {
      const { user, secret } = await enrolledUser();
      const code = await totpCode(secret, 1);
      const first = await post("checkotp", { otp: code }, String((await logIn(user)).body.session_token));
      expect(first.body.session_state).toBe("authorized");
      const again = await post("checkotp", { otp: code }, String((await logIn(user)).body.session_token));
      expectError(again, 401, "auth.otp.invalid");
    });

    it("spends the OTP budget: after 10 wrong codes the user is locked out, even for the right code", async () => {
      const { user, secret } = await enrolledUser();
      const token = String((await logIn(user)).body.session_token);
      const right = await totpCode(secret, 1);
      const wrong = right === "000000" ? "111111" : "000000";
      for (let attempt = 0; attempt < 10; attempt++)
        expectError(await post("checkotp", { otp: wrong }, token), 401, "auth.otp.invalid");
      const locked = await post("checkotp", { otp: right }, token);
      expect(locked.body.error_code, JSON.stringify(locked.body)).toBe("auth.restricted");
    });

    it("leaves the SMS second factor of users without an app as it was", async () => {
      const user = await createUser(company, { secondFactorRequired: true });
      const atOtp = await logIn(user);
      expectSuccess(atOtp, ["session_token", "session_state", "user_phone"]);
      expect(smsTo(company.id, user.phone).length).toBeGreaterThan(0);
    });
  });
});
