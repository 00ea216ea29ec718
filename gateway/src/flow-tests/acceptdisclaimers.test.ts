import { TestOAuth2Provider } from "@auth/identity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  disclaimerEvents,
  expectError,
  expectSuccess,
  type TestCompany,
  type TestUser,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const slot = 2;
const redirectUri = "https://app.example.com/callback";

/**
 * auth/acceptdisclaimers follows an OAuth login of a user who owes disclaimers (the only way into
 * state acceptdisclaimers): here through a plain OAuth 2.0 provider on loopback.
 */
describe("auth/acceptdisclaimers", () => {
  let provider: TestOAuth2Provider;
  let company: TestCompany;
  let accounts = 0;
  let terms: Awaited<ReturnType<typeof createDisclaimer>>;
  let privacy: Awaited<ReturnType<typeof createDisclaimer>>;

  beforeAll(async () => {
    provider = await TestOAuth2Provider.start();
    company = await createCompany();
    await company.setOAuthProvider(provider.slotSettings(slot, [redirectUri]));
    terms = await createDisclaimer(company, "terms");
    privacy = await createDisclaimer(company, "privacy");
  });
  afterAll(() => provider?.stop());

  /** An OAuth login of a new user linked to a new account of the provider: its answer. */
  async function oauthLogin(): Promise<{ user: TestUser; response: Awaited<ReturnType<typeof call>> }> {
    const user = await createUser(company);
    const account = ++accounts;
    await company.linkOAuthIdentity(user, slot, String(account));
    const response = await call(company.code, "oauth", {
      apiKey: company.apiKey,
      body: { provider_id: slot, code: provider.issueCode(account, redirectUri), redirect_uri: redirectUri },
    });
    return { user, response };
  }
  const accept = (token: string, body: Record<string, unknown>) =>
    call(company.code, "acceptdisclaimers", { apiKey: company.apiKey, token, body });

  describe("transition (none) -> acceptdisclaimers -> authorized", () => {
    it("asks for the disclaimers after the OAuth login, and authorizes once every code is accepted", async () => {
      const { user, response } = await oauthLogin();
      expectSuccess(response, ["session_token", "session_state", "disclaimers_required"]);
      expect(response.body).toMatchObject({
        session_state: "acceptdisclaimers",
        disclaimers_required: [privacy, terms],
      });
      const token = String(response.body.session_token);

      const partial = await accept(token, { accept_disclaimers: ["terms"] });
      expectError(partial, 403, "auth.disclaimer.invalid", ["disclaimers_required"]);
      expect(partial.body.disclaimers_required).toEqual([privacy, terms]);

      const accepted = await accept(token, { accept_disclaimers: ["privacy", "terms"] });
      expectSuccess(accepted, ["session_token", "session_state", "profile_mnemocode"]);
      expect(accepted.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
      expect(accepted.body.session_token).not.toBe(token);
      expectError(
        await accept(token, { accept_disclaimers: ["privacy", "terms"] }),
        401,
        "auth.token.invalid",
      );
    });
  });

  describe("request body", () => {
    it("answers request.validation.failed with 400 when accept_disclaimers is not a list of codes", async () => {
      const { response } = await oauthLogin();
      const token = String(response.body.session_token);
      expectError(await accept(token, { accept_disclaimers: "terms" }), 400, "request.validation.failed");
      expectError(await accept(token, { accept_disclaimers: [1] }), 400, "request.validation.failed");
    });

    it("takes a body without accept_disclaimers as accepting none", async () => {
      const { response } = await oauthLogin();
      const refused = await accept(String(response.body.session_token), {});
      expectError(refused, 403, "auth.disclaimer.invalid", ["disclaimers_required"]);
    });
  });

  describe("security events", () => {
    it("has the disclaimer service record the acceptance with the request's trace id and client address", async () => {
      const { user, response } = await oauthLogin();
      await accept(String(response.body.session_token), { accept_disclaimers: ["privacy", "terms"] });
      const events = (await disclaimerEvents()).filter((event) => event.userid === user.id);
      expect(events).toEqual([
        expect.objectContaining({
          type: "auth.disclaimer.accepted",
          companyid: company.id,
          traceid: expect.stringMatching(/^[0-9a-f]{32}$/),
          clientaddress: "127.0.0.1",
          disclaimer: { codes: ["privacy", "terms"] },
        }),
      ]);
    });
  });

  describe("session state", () => {
    it("answers auth.session.invalid with 409 for a token in state checkpassword", async () => {
      const user = await createUser(company);
      const login = await call(company.code, "login", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName },
      });
      expectError(
        await accept(String(login.body.session_token), { accept_disclaimers: [] }),
        409,
        "auth.session.invalid",
      );
    });
  });
});
