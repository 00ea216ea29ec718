import { randomBytes } from "node:crypto";
import { TestOAuth2Provider } from "@auth/identity/testing";
import { ProviderKind, UserStatus } from "@auth/proto/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  linkOAuthIdentity,
  setOAuthProvider,
  type TestCompany,
} from "./support/fixtures.js";
import { startLogin } from "./support/flows.js";
import { oidcClient, redirectUri, secondRedirectUri, TestOidcProvider } from "./support/oidc-provider.js";

const oidcSlot = 1;
const plainSlot = 2;

describe("auth/oauth", () => {
  let oidc: TestOidcProvider;
  let plain: TestOAuth2Provider;
  let company: TestCompany;
  const oauth = (body: Record<string, unknown>, target = company) =>
    call(target.code, "oauth", { apiKey: target.apiKey, body });
  const subject = () => `sub-${randomBytes(4).toString("hex")}`;

  /** A company with the OpenID Connect provider in slot 1 and the plain OAuth 2.0 one in slot 2. */
  async function companyWithProviders(): Promise<TestCompany> {
    const target = await createCompany();
    await setOAuthProvider(target, {
      slot: oidcSlot,
      kind: ProviderKind.OIDC,
      name: "Test OIDC",
      issuer: oidc.issuer,
      clientId: oidcClient.clientId,
      clientSecret: oidcClient.clientSecret,
      redirectUris: [redirectUri, secondRedirectUri],
    });
    await setOAuthProvider(target, plain.slotSettings(plainSlot, [redirectUri]));
    return target;
  }

  /** A user linked to a fresh subject at the OpenID Connect provider. */
  async function linkedUser(target = company, options: Parameters<typeof createUser>[1] = {}) {
    const user = await createUser(target, options);
    const account = subject();
    await linkOAuthIdentity(target, user, oidcSlot, account);
    return { user, account };
  }

  beforeAll(async () => {
    [oidc, plain] = await Promise.all([TestOidcProvider.start(), TestOAuth2Provider.start()]);
    company = await companyWithProviders();
  });
  afterAll(async () => {
    await Promise.all([oidc?.stop(), plain?.stop()]);
  });

  describe("transition (none) -> authorized: no disclaimers needed", () => {
    it("logs in with a real authorization code of an OpenID Connect provider", async () => {
      const { user, account } = await linkedUser();
      const code = await oidc.authorizationCode({ account });
      const response = await oauth({ provider_id: oidcSlot, code, redirect_uri: redirectUri });
      expectSuccess(response, ["session_token", "session_state", "profile_mnemocode"]);
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });

    it("logs in through a plain OAuth 2.0 provider's userinfo", async () => {
      const user = await createUser(company);
      await linkOAuthIdentity(company, user, plainSlot, "4242");
      const code = plain.issueCode(4242, redirectUri);
      const response = await oauth({ provider_id: plainSlot, code, redirect_uri: redirectUri });
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });

    it("checks the nonce the client used, and passes on the PKCE verifier", async () => {
      const { account } = await linkedUser();
      const codeVerifier = randomBytes(32).toString("base64url");
      const code = await oidc.authorizationCode({ account, nonce: "n-123", codeVerifier });
      const response = await oauth({
        provider_id: oidcSlot,
        code,
        redirect_uri: redirectUri,
        nonce: "n-123",
        code_verifier: codeVerifier,
      });
      expect(response.body.session_state).toBe("authorized");
    });
  });

  describe("transition (none) -> acceptdisclaimers, then auth/acceptdisclaimers", () => {
    it("asks for the disclaimers, and authorizes once all codes are accepted", async () => {
      const withTerms = await companyWithProviders();
      const terms = await createDisclaimer(withTerms, "terms");
      const privacy = await createDisclaimer(withTerms, "privacy");
      const { user, account } = await linkedUser(withTerms);
      const response = await oauth(
        { provider_id: oidcSlot, code: await oidc.authorizationCode({ account }), redirect_uri: redirectUri },
        withTerms,
      );
      expectSuccess(response, ["session_token", "session_state", "disclaimers_required"]);
      expect(response.body).toMatchObject({
        session_state: "acceptdisclaimers",
        disclaimers_required: [privacy, terms],
      });

      const token = String(response.body.session_token);
      const accept = (codes: string[]) =>
        call(withTerms.code, "acceptdisclaimers", {
          apiKey: withTerms.apiKey,
          token,
          body: { accept_disclaimers: codes },
        });
      const partial = await accept(["terms"]);
      expectError(partial, 403, "auth.disclaimer.invalid", ["disclaimers_required"]);
      expect(partial.body.disclaimers_required).toEqual([privacy, terms]);
      const accepted = await accept(["terms", "privacy"]);
      expectSuccess(accepted, ["session_token", "session_state", "profile_mnemocode"]);
      expect(accepted.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });
  });

  describe("rule 1: failed verification with the provider", () => {
    it.each([
      ["a made-up code", async () => ({ code: "not-a-code", redirect_uri: redirectUri })],
      [
        "a code used before",
        async () => {
          const { account } = await linkedUser();
          const code = await oidc.authorizationCode({ account });
          await oauth({ provider_id: oidcSlot, code, redirect_uri: redirectUri });
          return { code, redirect_uri: redirectUri };
        },
      ],
      [
        "a redirect_uri the code was not issued for",
        async () => ({
          code: await oidc.authorizationCode({ account: subject() }),
          redirect_uri: secondRedirectUri,
        }),
      ],
      [
        "a redirect_uri the slot does not allow",
        async () => ({
          code: await oidc.authorizationCode({ account: subject() }),
          redirect_uri: "https://evil.example.com/cb",
        }),
      ],
      [
        "a nonce that does not match",
        async () => ({
          code: await oidc.authorizationCode({ account: subject(), nonce: "right" }),
          redirect_uri: redirectUri,
          nonce: "wrong",
        }),
      ],
      [
        "a wrong PKCE verifier",
        async () => ({
          code: await oidc.authorizationCode({ account: subject(), codeVerifier: "a".repeat(43) }),
          redirect_uri: redirectUri,
          code_verifier: "b".repeat(43),
        }),
      ],
    ])("answers auth.oauth.failed with 401 for %s", async (_, request) => {
      expectError(await oauth({ provider_id: oidcSlot, ...(await request()) }), 401, "auth.oauth.failed");
    });

    it("answers auth.oauth.failed when the provider is down", async () => {
      const target = await createCompany();
      await setOAuthProvider(target, {
        slot: 1,
        issuer: "http://127.0.0.1:1",
        clientId: "c",
        clientSecret: "s",
        redirectUris: [redirectUri],
      });
      expectError(
        await oauth({ provider_id: 1, code: "c", redirect_uri: redirectUri }, target),
        401,
        "auth.oauth.failed",
      );
    });

    it("answers auth.oauth.failed when the provider does not answer within identity's timeout", async () => {
      // The provider never answers: only identity's timeout (OAUTH_TIMEOUT_SECONDS) ends the wait.
      plain.hangs = true;
      try {
        const code = plain.issueCode(7, redirectUri);
        expectError(
          await oauth({ provider_id: plainSlot, code, redirect_uri: redirectUri }),
          401,
          "auth.oauth.failed",
        );
      } finally {
        plain.hangs = false;
      }
    });
  });

  describe("rule 2: no profile for the provider's user", () => {
    it("answers auth.oauth.notfound with 404", async () => {
      const code = await oidc.authorizationCode({ account: subject() });
      expectError(
        await oauth({ provider_id: oidcSlot, code, redirect_uri: redirectUri }),
        404,
        "auth.oauth.notfound",
      );
    });
  });

  describe("rule 3: the user's status", () => {
    it.each([
      [UserStatus.RESTRICTED, "auth.user.restricted"],
      [UserStatus.CLOSED, "auth.user.closed"],
      [UserStatus.DENIED, "auth.user.denied"],
    ])("a %s user gets %s with 403", async (status, errorCode) => {
      const { account } = await linkedUser(company, { status });
      const code = await oidc.authorizationCode({ account });
      expectError(await oauth({ provider_id: oidcSlot, code, redirect_uri: redirectUri }), 403, errorCode);
    });
  });

  describe("request body", () => {
    it.each([
      ["provider_id 0", { provider_id: 0 }],
      ["provider_id 6", { provider_id: 6 }],
      ["provider_id 1.5", { provider_id: 1.5 }],
      ["provider_id as a string", { provider_id: "1" }],
      ["an unconfigured slot", { provider_id: 3 }],
      ["no code", { provider_id: 1, code: undefined }],
      ["no redirect_uri", { provider_id: 1, redirect_uri: undefined }],
    ])("answers request.validation.failed with 400 for %s", async (_, fields) => {
      const body = { code: "c", redirect_uri: redirectUri, ...fields };
      expectError(await oauth(body), 400, "request.validation.failed");
    });
  });
});

describe("auth/acceptdisclaimers", () => {
  it("answers auth.session.invalid with 409 for a token in another state", async () => {
    const company = await createCompany();
    const user = await createUser(company);
    const token = await startLogin(company, user.loginName);
    const response = await call(company.code, "acceptdisclaimers", {
      apiKey: company.apiKey,
      token,
      body: {},
    });
    expectError(response, 409, "auth.session.invalid");
  });
});
