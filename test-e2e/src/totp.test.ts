import { TestOAuth2Provider } from "@auth/identity/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createUser,
  generateBackupCodes,
  linkOAuthIdentity,
  setOAuthProvider,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { smsTo } from "./support/outbox.js";
import { enrolAuthenticator, totpCode, wrongTotpCode } from "./support/totp.js";

/**
 * docs/decisions.md, "TOTP": an authenticator app as the second factor beside SMS. It is enrolled
 * through an authorized session; the user's next logins go to the spec's checkotp without an SMS
 * and without `user_phone`, and checkotp's `otp` takes the app's code, each code once, under a
 * budget of the app's codes of their own (docs/security.md, "Guesses per hour at one user").
 * Replacing the app needs a code of it, and no login that skipped it can change it (issue 30).
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
      // A new user has no backup codes: the first set comes with the app (docs/decisions.md, Passkeys).
      const confirmed = await post("totp/confirm", { code }, token);
      expectSuccess(confirmed, ["sessions_ended", "backup_codes"]);
      expect(confirmed.body.backup_codes).toHaveLength(10);
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

    it("spends the budget of the app's codes: after 10 wrong codes the app's codes are refused, even the right one", async () => {
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

  describe("replacing the app (docs/security.md, Changing a factor)", () => {
    it("needs a code of the current app: none is 400, a wrong one 401 and nothing changes, a right one replaces it", async () => {
      const { user, secret: old } = await enrolledUser();
      // A fresh login with both factors; a backup code, since each step of the app is accepted once
      // and the enrolment used the current one.
      const [backupCode] = await generateBackupCodes(company, user);
      const atOtp = await logIn(user);
      const signedIn = await post("checkotp", { backup_code: backupCode }, String(atOtp.body.session_token));
      expect(signedIn.body.session_state, JSON.stringify(signedIn.body)).toBe("authorized");
      const token = String(signedIn.body.session_token);
      const next = String((await post("totp/enrol", {}, token)).body.secret);
      expectError(
        await post("totp/confirm", { code: await totpCode(next) }, token),
        400,
        "request.validation.failed",
      );
      expectError(
        await post(
          "totp/confirm",
          { code: await totpCode(next), current_code: await wrongTotpCode(old) },
          token,
        ),
        401,
        "auth.otp.invalid",
      );
      // The old app is still the user's, and the new secret still pending: a code of each replaces it.
      const replaced = await post(
        "totp/confirm",
        { code: await totpCode(next), current_code: await totpCode(old, 1) },
        token,
      );
      // The user has the backup codes that came with the first app: none come with this one.
      expectSuccess(replaced, ["sessions_ended"]);
      const withNew = await logIn(user);
      const checked = await post(
        "checkotp",
        { otp: await totpCode(next, 1) },
        String(withNew.body.session_token),
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
    });
  });

  describe("an OAuth login of a user with an app (the takeover of issue 30)", () => {
    const slot = 3;
    const redirectUri = "https://app.example.com/oauth";
    let provider: TestOAuth2Provider;

    beforeAll(async () => {
      provider = await TestOAuth2Provider.start();
      await setOAuthProvider(company, provider.slotSettings(slot, [redirectUri]));
    });
    afterAll(() => provider?.stop());

    it("is not authorized, cannot enrol an app of its holder's (409 auth.session.invalid), and the user's own app keeps working", async () => {
      const { user, secret } = await enrolledUser();
      // The provider's account the attacker holds, linked to the victim.
      const account = 4_242;
      await linkOAuthIdentity(company, user, slot, String(account));
      const started = await post("oauth", {
        provider_id: slot,
        code: provider.issueCode(account, redirectUri),
        redirect_uri: redirectUri,
      });
      expect(started.body.session_state, JSON.stringify(started.body)).toBe("checkotp");
      const token = String(started.body.session_token);
      expectError(await post("totp/enrol", {}, token), 409, "auth.session.invalid");
      expectError(await post("totp/confirm", { code: "123456" }, token), 409, "auth.session.invalid");
      // The victim's app still signs the victim in.
      const atOtp = await logIn(user);
      const checked = await post(
        "checkotp",
        { otp: await totpCode(secret, 1) },
        String(atOtp.body.session_token),
      );
      expect(checked.body.session_state, JSON.stringify(checked.body)).toBe("authorized");
    });
  });
});
