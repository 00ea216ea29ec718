import { TestOAuth2Provider } from "@auth/identity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  enrolAuthenticator,
  expectError,
  expectSuccess,
  lastOtp,
  smsTo,
  type TestCompany,
  type TestUser,
  totpCode,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const slot = 3;
const redirectUri = "https://app.example.com/oauth";

/**
 * spec 4.7 under the company's second-factor rule (docs/decisions.md, "OAuth"): a user who must pass a
 * second factor passes it after the provider's login, in checkotp, as after a password; the
 * provider's login is the session's first factor.
 */
describe("auth/oauth and the second factor", () => {
  let provider: TestOAuth2Provider;
  let company: TestCompany;
  let accounts = 0;

  beforeAll(async () => {
    provider = await TestOAuth2Provider.start();
    company = await createCompany();
    await company.setOAuthProvider(provider.slotSettings(slot, [redirectUri]));
  });
  afterAll(() => provider?.stop());

  const post = (operation: string, body: Record<string, unknown>, token?: string, target = company) =>
    call(target.code, operation, { apiKey: target.apiKey, body, token });
  /** The user's login at the provider, through a new account linked to the user. */
  async function oauthLogin(user: TestUser, target = company) {
    const account = 1_000 + ++accounts;
    await target.linkOAuthIdentity(user, slot, String(account));
    return post(
      "oauth",
      { provider_id: slot, code: provider.issueCode(account, redirectUri), redirect_uri: redirectUri },
      undefined,
      target,
    );
  }
  /** The authentication the session of this token shows in the user's session list. */
  async function authenticationOf(token: string) {
    const listed = await post("sessions", {}, token);
    const sessions = listed.body.sessions as Array<{ current: boolean; authentication: unknown }>;
    return sessions.find((session) => session.current)?.authentication;
  }

  it("transition (none) -> checkotp: a user whose second factor is required is sent the SMS, and the code authorizes at level 2", async () => {
    const user = await createUser(company, { secondFactorRequired: true });
    const started = await oauthLogin(user);
    expectSuccess(started, ["session_token", "session_state", "disclaimers_required", "user_phone"]);
    expect(started.body).toMatchObject({ session_state: "checkotp", disclaimers_required: [] });
    expect(smsTo(company.id, user.phone)).toHaveLength(1);
    const checked = await post(
      "checkotp",
      { otp: lastOtp(company.id, user.phone) },
      String(started.body.session_token),
    );
    expect(checked.body.session_state).toBe("authorized");
    expect(await authenticationOf(String(checked.body.session_token))).toMatchObject({
      level: 2,
      amr: ["fed", "sms", "mfa"],
    });
  });

  it("transition (none) -> checkotp: a user with an authenticator app is sent nothing, and only the app's code authorizes", async () => {
    const user = await createUser(company);
    const secret = await enrolAuthenticator(company, user);
    const started = await oauthLogin(user);
    expectSuccess(started, ["session_token", "session_state", "disclaimers_required"]);
    expect(started.body.session_state).toBe("checkotp");
    expect(smsTo(company.id, user.phone)).toEqual([]);
    const token = String(started.body.session_token);
    // Not authorized: the provider's login alone cannot reach the app's enrolment (the takeover the
    // review found: an OAuth session replacing the user's app).
    expectError(await post("totp/enrol", {}, token), 409, "auth.session.invalid");
    // The step after the enrolment's: each step of the app is accepted once.
    const checked = await post("checkotp", { otp: await totpCode(secret, 1) }, token);
    expect(checked.body.session_state).toBe("authorized");
    expect(await authenticationOf(String(checked.body.session_token))).toMatchObject({
      level: 2,
      amr: ["fed", "otp", "mfa"],
    });
  });

  it("carries the disclaimers owed to checkotp, which needs them accepted", async () => {
    const target = await createCompany();
    await target.setOAuthProvider(provider.slotSettings(slot, [redirectUri]));
    const terms = await createDisclaimer(target, "terms");
    const user = await createUser(target, { secondFactorRequired: true });
    const started = await oauthLogin(user, target);
    expect(started.body).toMatchObject({ session_state: "checkotp", disclaimers_required: [terms] });
    const token = String(started.body.session_token);
    const otp = lastOtp(target.id, user.phone);
    expectError(await post("checkotp", { otp }, token, target), 403, "auth.disclaimer.invalid", [
      "disclaimers_required",
    ]);
    const checked = await post("checkotp", { otp, accept_disclaimers: ["terms"] }, token, target);
    expect(checked.body.session_state).toBe("authorized");
  });

  it("authorizes a user without a second factor at level 1 (amr fed), who cannot enrol an app on the provider's login alone", async () => {
    const user = await createUser(company);
    const started = await oauthLogin(user);
    expect(started.body.session_state).toBe("authorized");
    const token = String(started.body.session_token);
    expect(await authenticationOf(token)).toMatchObject({
      level: 1,
      amr: ["fed"],
      factors: [{ kind: "federated", amr: "fed" }],
    });
    expectError(await post("totp/enrol", {}, token), 403, "auth.reauthentication.required");
  });
});
