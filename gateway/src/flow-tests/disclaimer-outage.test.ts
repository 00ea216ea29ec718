import { TestOAuth2Provider } from "@auth/identity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  expectError,
  lastOtp,
  type TestCompany,
  type TestUser,
  useInProcessSuite,
} from "../testing/fixtures.js";

const suite = useInProcessSuite();

const slot = 2;
const redirectUri = "https://app.example.com/oauth";

/**
 * The disclaimer service down (docs/decisions.md, "Disclaimers while their service is down"): a
 * company the service last listed without disclaimers logs in as before; one with disclaimers
 * answers 503 service.unavailable on every step that would read or record them, never skipping
 * them. The whole file runs with the service stopped, after the gateway has read the list once.
 */
describe("the login steps while the disclaimer service is down", () => {
  let provider: TestOAuth2Provider;
  let withoutDisclaimers: TestCompany;
  let withTerms: TestCompany;
  let owesTerms: TestUser;
  /** A session of withTerms started before the outage, which owes the terms. */
  let startedBefore: string;
  let accounts = 0;

  const post = (company: TestCompany, operation: string, body: Record<string, unknown>, token?: string) =>
    call(company.code, operation, { apiKey: company.apiKey, body, token });
  async function oauthLogin(company: TestCompany, user: TestUser) {
    const account = 1_000 + ++accounts;
    await company.linkOAuthIdentity(user, slot, String(account));
    return post(company, "oauth", {
      provider_id: slot,
      code: provider.issueCode(account, redirectUri),
      redirect_uri: redirectUri,
    });
  }

  beforeAll(async () => {
    provider = await TestOAuth2Provider.start();
    [withoutDisclaimers, withTerms] = await Promise.all([createCompany(), createCompany()]);
    for (const company of [withoutDisclaimers, withTerms])
      await company.setOAuthProvider(provider.slotSettings(slot, [redirectUri]));
    await createDisclaimer(withTerms, "terms");
    owesTerms = await createUser(withTerms);
    startedBefore = String(
      (await post(withTerms, "login", { login_id: owesTerms.loginName })).body.session_token,
    );
    await suite().readCompaniesWithDisclaimers();
    await suite().stopDisclaimerService();
  });
  afterAll(() => provider?.stop());

  describe("a company without disclaimers", () => {
    it("logs in with login and checkpassword, disclaimers_required empty", async () => {
      const user = await createUser(withoutDisclaimers);
      const started = await post(withoutDisclaimers, "login", { login_id: user.loginName });
      expect(started.body).toMatchObject({ session_state: "checkpassword", disclaimers_required: [] });
      const checked = await post(
        withoutDisclaimers,
        "checkpassword",
        { password: user.password },
        String(started.body.session_token),
      );
      expect(checked.body.session_state).toBe("authorized");
    });

    it("logs in with checkcredentials", async () => {
      const user = await createUser(withoutDisclaimers);
      const checked = await post(withoutDisclaimers, "checkcredentials", {
        login_id: user.loginName,
        password: user.password,
      });
      expect(checked.body.session_state).toBe("authorized");
    });

    it("logs in by SMS one-time password (login, checkotp)", async () => {
      const user = await createUser(withoutDisclaimers, { password: null });
      const started = await post(withoutDisclaimers, "login", { login_id: user.loginName });
      expect(started.body).toMatchObject({ session_state: "checkotp", disclaimers_required: [] });
      const checked = await post(
        withoutDisclaimers,
        "checkotp",
        { otp: lastOtp(withoutDisclaimers.id, user.phone) },
        String(started.body.session_token),
      );
      expect(checked.body.session_state).toBe("authorized");
    });

    it("logs in with oauth", async () => {
      const user = await createUser(withoutDisclaimers);
      expect((await oauthLogin(withoutDisclaimers, user)).body.session_state).toBe("authorized");
    });
  });

  describe("a company with disclaimers", () => {
    it("answers 503 service.unavailable on login, checkcredentials and oauth instead of skipping them", async () => {
      const user = await createUser(withTerms);
      expectError(await post(withTerms, "login", { login_id: user.loginName }), 503, "service.unavailable");
      expectError(
        await post(withTerms, "checkcredentials", {
          login_id: user.loginName,
          password: user.password,
          accept_disclaimers: ["terms"],
        }),
        503,
        "service.unavailable",
      );
      expectError(await oauthLogin(withTerms, user), 503, "service.unavailable");
    });

    it("answers checkpassword of a session that owes them 503: the acceptance cannot be recorded", async () => {
      expectError(
        await post(
          withTerms,
          "checkpassword",
          { password: owesTerms.password, accept_disclaimers: ["terms"] },
          startedBefore,
        ),
        503,
        "service.unavailable",
      );
    });

    it("still tells a wrong password first (checkcredentials looks at disclaimers after the credentials)", async () => {
      const user = await createUser(withTerms);
      expectError(
        await post(withTerms, "checkcredentials", { login_id: user.loginName, password: "wrong password" }),
        401,
        "auth.credentials.invalid",
        ["captcha_required"],
      );
    });
  });
});
