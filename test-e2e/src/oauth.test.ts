import { randomBytes } from "node:crypto";
import { TestOAuth2Provider } from "@auth/identity/fixtures";
import { ProviderKind, UserStatus } from "@auth/proto/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, expectError, expectSuccess } from "./support/api.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  linkOAuthIdentity,
  setOAuthProvider,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { startLogin } from "./support/flows.js";
import {
  type AuthorizationOptions,
  acrValues,
  oidcClient,
  oidcPublicClient,
  type ProviderLogin,
  redirectUri,
  secondRedirectUri,
  TestOidcProvider,
} from "./support/oidc-provider.js";
import { lastOtp, smsTo } from "./support/outbox.js";
import { enrolAuthenticator, totpCode } from "./support/totp.js";

const oidcSlot = 1;
const plainSlot = 2;
/** The OpenID Connect provider again, for its public client (no client secret). */
const publicSlot = 3;
/** The OpenID Connect provider again, trusting its multi-factor logins (amr mfa, or acr urn:example:mfa). */
const trustingSlot = 4;
/** The OpenID Connect provider again, with a max_age. */
const maxAgeSlot = 5;
const maxAgeSeconds = 300;

/** How a session was authenticated, as auth/sessions shows it (docs/api-contract.md, "Assurance"). */
interface ShownAuthentication {
  level: number;
  amr: string[];
  factors: Array<{ kind: string; amr: string; authenticated_at: string }>;
  authenticated_at?: string;
}

const nonceOf = () => randomBytes(16).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);

describe("auth/oauth", () => {
  let oidc: TestOidcProvider;
  let plain: TestOAuth2Provider;
  let company: TestCompany;
  const oauth = (body: Record<string, unknown>, target = company) =>
    call(target.code, "oauth", { apiKey: target.apiKey, body });
  const post = (operation: string, body: Record<string, unknown>, token: string, target = company) =>
    call(target.code, operation, { apiKey: target.apiKey, body, token });
  const subject = () => `sub-${randomBytes(4).toString("hex")}`;

  /** The OpenID Connect provider's confidential client in a slot: its settings beside the slot's own. */
  const oidcSlotSettings = (slot: number, settings: Parameters<typeof setOAuthProvider>[1] = { slot }) => ({
    kind: ProviderKind.OIDC,
    name: "Test OIDC",
    issuer: oidc.issuer,
    clientId: oidcClient.clientId,
    clientSecret: oidcClient.clientSecret,
    redirectUris: [redirectUri, secondRedirectUri],
    ...settings,
  });

  /** A company with the OpenID Connect provider in slot 1 and the plain OAuth 2.0 one in slot 2. */
  async function companyWithProviders(): Promise<TestCompany> {
    const target = await createCompany();
    await setOAuthProvider(target, oidcSlotSettings(oidcSlot));
    await setOAuthProvider(target, plain.slotSettings(plainSlot, [redirectUri]));
    return target;
  }

  /** A user linked to a fresh subject at the OpenID Connect provider, in slot 1 unless told. */
  async function linkedUser(
    target = company,
    options: Parameters<typeof createUser>[1] = {},
    slot = oidcSlot,
  ): Promise<{ user: TestUser; account: string }> {
    const user = await createUser(target, options);
    const account = subject();
    await linkOAuthIdentity(target, user, slot, account);
    return { user, account };
  }

  /**
   * auth/oauth's body for a real code of the OpenID Connect provider, obtained by an authorization
   * request with a nonce of its own (which the body carries) and whatever else `options` add.
   */
  async function oidcGrant(
    account: string,
    options: Omit<AuthorizationOptions, "account" | "nonce"> = {},
    slot = oidcSlot,
  ): Promise<Record<string, unknown>> {
    const nonce = nonceOf();
    const code = await oidc.authorizationCode({ account, nonce, ...options });
    return { provider_id: slot, code, redirect_uri: options.redirectUri ?? redirectUri, nonce };
  }

  /** The authentication the session of this token shows in the user's session list. */
  async function authenticationOf(token: string, target = company): Promise<ShownAuthentication> {
    const listed = await post("sessions", {}, token, target);
    expectSuccess(listed, ["sessions"]);
    const sessions = listed.body.sessions as Array<{ current: boolean; authentication: ShownAuthentication }>;
    const current = sessions.find((session) => session.current);
    if (!current) throw new Error("the session list has no current session");
    return current.authentication;
  }

  /** An answer's session token, once its state is the one expected. */
  function tokenIn(response: ApiResponse, state: string): string {
    expect(response.body.session_state, JSON.stringify(response.body)).toBe(state);
    return String(response.body.session_token);
  }

  /** Whether the provider's token endpoint was asked while `run` ran. */
  async function askedProvider(run: () => Promise<unknown>): Promise<boolean> {
    const before = oidc.tokenRequests;
    await run();
    return oidc.tokenRequests > before;
  }

  beforeAll(async () => {
    [oidc, plain] = await Promise.all([TestOidcProvider.start(), TestOAuth2Provider.start()]);
    company = await companyWithProviders();
    await setOAuthProvider(
      company,
      oidcSlotSettings(publicSlot, {
        slot: publicSlot,
        name: "Test OIDC, public client",
        clientId: oidcPublicClient.clientId,
        clientSecret: "",
      }),
    );
    await setOAuthProvider(
      company,
      oidcSlotSettings(trustingSlot, {
        slot: trustingSlot,
        name: "Test OIDC, trusted MFA",
        trustsProviderMfa: true,
        mfaAcrValues: [acrValues.multiFactor],
      }),
    );
    await setOAuthProvider(
      company,
      oidcSlotSettings(maxAgeSlot, { slot: maxAgeSlot, name: "Test OIDC, max_age", maxAgeSeconds }),
    );
  });
  afterAll(async () => {
    await Promise.all([oidc?.stop(), plain?.stop()]);
  });

  describe("transition (none) -> authorized: no disclaimers needed", () => {
    it("logs in with a real authorization code of an OpenID Connect provider", async () => {
      const { user, account } = await linkedUser();
      const response = await oauth(await oidcGrant(account));
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
      const response = await oauth(await oidcGrant(account), withTerms);
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

  describe("transition (none) -> checkotp: a user who must pass a second factor passes it after the provider's login (docs/decisions.md, OAuth)", () => {
    it("sends the SMS to a user whose second factor is required (user_phone), and the SMS code authorizes at level 2 with amr fed, sms, mfa", async () => {
      const { user, account } = await linkedUser(company, { secondFactorRequired: true });
      const started = await oauth(await oidcGrant(account));
      expectSuccess(started, ["session_token", "session_state", "disclaimers_required", "user_phone"]);
      expect(started.body).toMatchObject({ session_state: "checkotp", disclaimers_required: [] });
      expect(smsTo(company.id, user.phone)).toHaveLength(1);
      const token = tokenIn(started, "checkotp");
      // Not authorized yet: the provider's login alone reaches nothing of the user's.
      expectError(await post("sessions", {}, token), 409, "auth.session.invalid");

      const checked = await post("checkotp", { otp: lastOtp(company.id, user.phone) }, token);
      const authorized = tokenIn(checked, "authorized");
      const authentication = await authenticationOf(authorized);
      expect(authentication).toMatchObject({ level: 2, amr: ["fed", "sms", "mfa"] });
      expect(authentication.factors.map((factor) => [factor.kind, factor.amr])).toEqual([
        ["federated", "fed"],
        ["sms_code", "sms"],
      ]);
    });

    it("sends nothing to a user with an authenticator app (no user_phone), who cannot replace the app from that session, and the app's code authorizes at level 2 with amr fed, otp, mfa", async () => {
      const { user, account } = await linkedUser();
      const signedIn = await call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: user.loginName, password: user.password },
      });
      const secret = await enrolAuthenticator(
        (operation, body, token) => post(operation, body, token ?? ""),
        tokenIn(signedIn, "authorized"),
      );

      const started = await oauth(await oidcGrant(account));
      expectSuccess(started, ["session_token", "session_state", "disclaimers_required"]);
      expect(smsTo(company.id, user.phone)).toEqual([]);
      const token = tokenIn(started, "checkotp");
      // The takeover issue 30 found: an OAuth session replacing the user's app.
      expectError(await post("totp/enrol", {}, token), 409, "auth.session.invalid");

      // The step after the enrolment's: each step of the app is accepted once.
      const checked = await post("checkotp", { otp: await totpCode(secret, 1) }, token);
      const authentication = await authenticationOf(tokenIn(checked, "authorized"));
      expect(authentication).toMatchObject({ level: 2, amr: ["fed", "otp", "mfa"] });
      expect(authentication.factors.map((factor) => factor.kind)).toEqual(["federated", "app_code"]);
    });
  });

  describe("a slot that trusts its provider's multi-factor login needs the ID token's proof of it: amr or acr (ASVS 5.0 6.8.4)", () => {
    /** A user whose second factor is required, linked in this slot, logging in at the provider like this. */
    async function providerLogin(slot: number, login: ProviderLogin) {
      const { user, account } = await linkedUser(company, { secondFactorRequired: true }, slot);
      const response = await oauth(await oidcGrant(account, { login }, slot));
      return { user, response };
    }

    it.each([
      ["amr holds mfa", { amr: ["pwd", "mfa"] }],
      ["acr is one of the slot's mfa_acr_values", { amr: ["pwd"], acr: acrValues.multiFactor }],
    ])(
      "authorizes a user whose second factor is required without the product's second factor when %s, at level 2 with amr fed, mfa",
      async (_, login) => {
        const { user, response } = await providerLogin(trustingSlot, login);
        expectSuccess(response, ["session_token", "session_state", "profile_mnemocode"]);
        expect(smsTo(company.id, user.phone)).toEqual([]);
        const authentication = await authenticationOf(tokenIn(response, "authorized"));
        expect(authentication).toMatchObject({ level: 2, amr: ["fed", "mfa"] });
        expect(authentication.factors.map((factor) => factor.kind)).toEqual(["federated"]);
      },
    );

    it.each([
      ["the ID token proves no multi-factor login", trustingSlot, { amr: ["pwd"], acr: acrValues.password }],
      ["the ID token says nothing of how the user logged in", trustingSlot, {}],
      [
        "the slot does not trust the provider's multi-factor login",
        oidcSlot,
        { amr: ["pwd", "mfa"], acr: acrValues.multiFactor },
      ],
    ])(
      "asks for the product's second factor when %s: checkotp, with the SMS sent",
      async (_, slot, login) => {
        const { user, response } = await providerLogin(slot, login);
        expect(response.body).toMatchObject({ session_state: "checkotp", disclaimers_required: [] });
        expect(response.body.user_phone).toEqual(expect.any(String));
        expect(smsTo(company.id, user.phone)).toHaveLength(1);
      },
    );
  });

  describe("a slot's max_age_seconds: the provider's login must be no older (ASVS 5.0 7.6.1)", () => {
    it("refuses an ID token whose auth_time is older than the slot's max_age with 401 auth.oauth.failed", async () => {
      const { account } = await linkedUser(company, {}, maxAgeSlot);
      // The provider kept a login of an hour ago and did not ask again (no max_age reached it): the
      // suite's own check is what refuses it.
      const grant = await oidcGrant(account, { login: { authTime: now() - 3_600 } }, maxAgeSlot);
      expectError(await oauth(grant), 401, "auth.oauth.failed");
    });

    it("accepts a login within max_age, as the provider makes when the client sends max_age", async () => {
      const { user, account } = await linkedUser(company, {}, maxAgeSlot);
      const grant = await oidcGrant(account, { maxAge: maxAgeSeconds }, maxAgeSlot);
      const response = await oauth(grant);
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });
  });

  describe("the provider's login is the session's first factor, at the time the provider says (ASVS 5.0 6.8.4, 7.6.1)", () => {
    it("accepts a login of any age when the slot sets no max_age, and the federated factor's authenticated_at is the ID token's auth_time", async () => {
      const { account } = await linkedUser();
      const authTime = now() - 2 * 3_600;
      const response = await oauth(await oidcGrant(account, { login: { authTime } }));
      const authentication = await authenticationOf(tokenIn(response, "authorized"));
      const at = new Date(authTime * 1000).toISOString();
      expect(authentication).toEqual({
        level: 1,
        amr: ["fed"],
        factors: [{ kind: "federated", amr: "fed", authenticated_at: at }],
        authenticated_at: at,
      });
    });
  });

  describe("an OpenID Connect slot's code needs the nonce the client sent (docs/decisions.md, OAuth)", () => {
    it.each([
      ["without nonce", undefined],
      ["with an empty nonce", ""],
    ])(
      "answers a code %s with 400 request.validation.failed, before the provider is asked",
      async (_, nonce) => {
        const { user, account } = await linkedUser();
        const grant = await oidcGrant(account);
        let refused: ApiResponse | undefined;
        expect(
          await askedProvider(async () => {
            refused = await oauth({ ...grant, nonce });
          }),
        ).toBe(false);
        expectError(refused as ApiResponse, 400, "request.validation.failed");
        // The code was not spent: with its nonce it still logs in.
        expect((await oauth(grant)).body).toMatchObject({
          session_state: "authorized",
          profile_mnemocode: user.profileMnemocode,
        });
      },
    );
  });

  describe("a public client's code needs its PKCE verifier, of RFC 7636's shape (docs/decisions.md, OAuth)", () => {
    /** auth/oauth's body for a code of the public client, asked for with this verifier's S256 challenge. */
    async function publicGrant(account: string, codeVerifier: string) {
      return oidcGrant(account, { clientId: oidcPublicClient.clientId, codeVerifier }, publicSlot);
    }
    const verifier = () => randomBytes(32).toString("base64url");

    it("logs in with a public client's code and its verifier", async () => {
      const { user, account } = await linkedUser(company, {}, publicSlot);
      const codeVerifier = verifier();
      const response = await oauth({
        ...(await publicGrant(account, codeVerifier)),
        code_verifier: codeVerifier,
      });
      expect(response.body).toMatchObject({
        session_state: "authorized",
        profile_mnemocode: user.profileMnemocode,
      });
    });

    it.each([
      ["without code_verifier", undefined],
      ["with a verifier of 42 characters", "a".repeat(42)],
      ["with a verifier of 129 characters", "a".repeat(129)],
      ["with a verifier that has a character outside A-Z a-z 0-9 - . _ ~", `${"a".repeat(42)}+`],
    ])(
      "answers a public client's code %s with 400 request.validation.failed, before the provider is asked",
      async (_, codeVerifier) => {
        const { user, account } = await linkedUser(company, {}, publicSlot);
        const rightVerifier = verifier();
        const grant = await publicGrant(account, rightVerifier);
        let refused: ApiResponse | undefined;
        expect(
          await askedProvider(async () => {
            refused = await oauth({ ...grant, code_verifier: codeVerifier });
          }),
        ).toBe(false);
        expectError(refused as ApiResponse, 400, "request.validation.failed");
        // The code was not spent: with its verifier it still logs in.
        expect((await oauth({ ...grant, code_verifier: rightVerifier })).body).toMatchObject({
          session_state: "authorized",
          profile_mnemocode: user.profileMnemocode,
        });
      },
    );

    it("a confidential client's code needs no verifier", async () => {
      const { account } = await linkedUser();
      expect((await oauth(await oidcGrant(account))).body.session_state).toBe("authorized");
    });
  });

  describe("rule 1: failed verification with the provider", () => {
    it.each([
      ["a made-up code", async () => ({ code: "not-a-code", redirect_uri: redirectUri, nonce: nonceOf() })],
      [
        "a code used before",
        async () => {
          const { account } = await linkedUser();
          const grant = await oidcGrant(account);
          await oauth(grant);
          return grant;
        },
      ],
      [
        "a redirect_uri the code was not issued for",
        async () => ({ ...(await oidcGrant(subject())), redirect_uri: secondRedirectUri }),
      ],
      [
        "a redirect_uri the slot does not allow",
        async () => ({ ...(await oidcGrant(subject())), redirect_uri: "https://evil.example.com/cb" }),
      ],
      ["a nonce that does not match", async () => ({ ...(await oidcGrant(subject())), nonce: "wrong" })],
      [
        "a wrong PKCE verifier",
        async () => ({
          ...(await oidcGrant(subject(), { codeVerifier: "a".repeat(43) })),
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
        await oauth({ provider_id: 1, code: "c", redirect_uri: redirectUri, nonce: nonceOf() }, target),
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
      expectError(await oauth(await oidcGrant(subject())), 404, "auth.oauth.notfound");
    });
  });

  describe("rule 3: the user's status", () => {
    it.each([
      [UserStatus.RESTRICTED, "auth.user.restricted"],
      [UserStatus.CLOSED, "auth.user.closed"],
      [UserStatus.DENIED, "auth.user.denied"],
    ])("a %s user gets %s with 403", async (status, errorCode) => {
      const { account } = await linkedUser(company, { status });
      expectError(await oauth(await oidcGrant(account)), 403, errorCode);
    });
  });

  describe("request body", () => {
    /** Slots 1 and 2 only: slot 3 is not configured. */
    let twoSlots: TestCompany;
    beforeAll(async () => {
      twoSlots = await companyWithProviders();
    });

    it.each([
      ["provider_id 0", { provider_id: 0 }],
      ["provider_id 6", { provider_id: 6 }],
      ["provider_id 1.5", { provider_id: 1.5 }],
      ["provider_id as a string", { provider_id: "1" }],
      ["an unconfigured slot", { provider_id: 3 }],
      ["no code", { provider_id: 1, code: undefined }],
      ["no redirect_uri", { provider_id: 1, redirect_uri: undefined }],
    ])("answers request.validation.failed with 400 for %s", async (_, fields) => {
      const body = { code: "c", redirect_uri: redirectUri, nonce: nonceOf(), ...fields };
      expectError(await oauth(body, twoSlots), 400, "request.validation.failed");
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
