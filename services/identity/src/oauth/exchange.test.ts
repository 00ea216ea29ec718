import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
} from "@auth/grpc-kit";
import { IdentityServiceService } from "@auth/proto/identity";
import { CheckOutcome, type RecordFederatedLoginRequest } from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OAuthProviderRow } from "../schema.js";
import {
  FakePasskeySessions,
  noCredentialChange,
  providerSettings,
  seedCompany,
  seedUser,
  startIdentityForTests,
} from "../testing.js";
import { OAuthExchange } from "./exchange.js";

const redirectUri = "https://app.example.com/cb";
type Keys = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A hand-made OpenID Connect provider: its token endpoint answers whatever ID token the test
 * prepared, so that each of the ID token checks can be shown to refuse, and it keeps the requests
 * it was sent, so that a test can tell whether the provider was asked.
 */
let server: Server;
let issuer: string;
let published: Keys;
let idToken = "";
const tokenRequests: URLSearchParams[] = [];

async function sign(claims: JWTPayload, keys: Keys = published, expiresIn = "5m") {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(keys.privateKey);
}

beforeAll(async () => {
  published = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(published.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const json = (value: unknown) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (request.url === "/.well-known/openid-configuration") {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: ["ES256"],
      });
    }
    if (request.url === "/jwks") return json({ keys: [jwk] });
    if (request.url === "/token") {
      tokenRequests.push(new URLSearchParams(body));
      return json({ access_token: "at", token_type: "Bearer", id_token: idToken });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const provider = (overrides: Partial<OAuthProviderRow> = {}): OAuthProviderRow => ({
  companyId: "c1",
  slot: 1,
  kind: "oidc",
  name: "Hand-made",
  issuer,
  authorizationEndpoint: "",
  tokenEndpoint: "",
  userinfoEndpoint: "",
  clientId: "client-1",
  clientSecretEncrypted: "",
  redirectUris: [redirectUri],
  scopes: ["openid"],
  subjectClaim: "sub",
  trustsProviderMfa: false,
  mfaAcrValues: [],
  maxAgeSeconds: 0,
  updatedAt: new Date(0),
  ...overrides,
});
const exchange = new OAuthExchange({ allowInsecureHttp: true, timeoutSeconds: 2, cacheMs: 60_000 });
const nonce = "n-1";
const now = () => Math.floor(Date.now() / 1000);
/** An ID token of this provider for client-1, with the client's nonce, and these claims. */
const idTokenWith = (claims: JWTPayload = {}) =>
  sign({ iss: issuer, aud: "client-1", sub: "alice", nonce, ...claims });
const loginFor = (
  slot: Partial<OAuthProviderRow> = {},
  grant: { codeVerifier?: string; nonce?: string } = { nonce },
) => exchange.loginFor(provider(slot), "secret", { code: "code-1", redirectUri, ...grant });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "verified",
    (error: AuthError) => error.code,
  );
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: AuthError) => error,
  );

describe("ID token verification", () => {
  it("accepts a token signed with a published key, for this client, from this issuer, in time, with the client's nonce", async () => {
    idToken = await idTokenWith();
    expect((await loginFor()).subject).toBe("alice");
  });

  it.each([
    [
      "signed with a key the provider does not publish",
      async () => sign({ iss: issuer, aud: "client-1", sub: "a", nonce }, await generateKeyPair("ES256")),
    ],
    ["for another client", async () => idTokenWith({ aud: "someone-else" })],
    ["from another issuer", async () => idTokenWith({ iss: "https://evil.example.com" })],
    ["expired", async () => sign({ iss: issuer, aud: "client-1", sub: "a", nonce }, published, "-10m")],
    ["without the nonce", async () => sign({ iss: issuer, aud: "client-1", sub: "a" })],
    ["with another nonce", async () => idTokenWith({ nonce: "n-2" })],
  ])("refuses a token %s with auth.oauth.failed", async (_, token) => {
    idToken = await token();
    expect(await codeOf(loginFor())).toBe("auth.oauth.failed");
  });

  it("refuses a redirect URI the slot does not list, before asking the provider", async () => {
    const asked = tokenRequests.length;
    const error = await errorOf(
      exchange.loginFor(provider(), "secret", {
        code: "c",
        redirectUri: "https://app.example.com/other",
        nonce,
      }),
    );
    expect(error?.code).toBe("auth.oauth.failed");
    expect(tokenRequests.length).toBe(asked);
  });
});

describe("a code without what its slot requires is refused before the provider is asked (docs/decisions.md, OAuth)", () => {
  beforeEach(async () => {
    idToken = await idTokenWith();
  });
  /** The error of the exchange, and whether the provider was asked. */
  async function refusal(login: Promise<unknown>) {
    const asked = tokenRequests.length;
    const error = await errorOf(login);
    return { code: error?.code, detail: error?.message, askedProvider: tokenRequests.length > asked };
  }
  const publicClient = (grant: { codeVerifier?: string; nonce?: string }) =>
    exchange.loginFor(provider(), "", { code: "code-1", redirectUri, ...grant });
  const verifier = (length: number) => "a".repeat(length);

  it("a public client's code needs its PKCE verifier: code_verifier", async () => {
    expect(await refusal(publicClient({ nonce }))).toEqual({
      code: "request.validation.failed",
      detail: expect.stringMatching(/^code_verifier: /),
      askedProvider: false,
    });
  });

  it.each([
    ["42 characters", verifier(42)],
    ["129 characters", verifier(129)],
    ["a character outside A-Z a-z 0-9 - . _ ~", `${verifier(42)}+`],
  ])("a verifier must have RFC 7636's shape: not %s", async (_, codeVerifier) => {
    expect(await refusal(publicClient({ codeVerifier, nonce }))).toEqual({
      code: "request.validation.failed",
      detail: expect.stringMatching(/^code_verifier: .*RFC 7636/),
      askedProvider: false,
    });
  });

  it("a verifier of 43 to 128 characters of RFC 7636's set is sent to the provider", async () => {
    for (const codeVerifier of [`${verifier(40)}-._~`.slice(0, 43), `Zz09${verifier(124)}`]) {
      expect((await publicClient({ codeVerifier, nonce })).subject).toBe("alice");
      expect(tokenRequests.at(-1)?.get("code_verifier")).toBe(codeVerifier);
    }
  });

  it("a confidential client's code needs no verifier", async () => {
    expect((await loginFor()).subject).toBe("alice");
  });

  it("an OpenID Connect slot's code needs the nonce the client sent: nonce", async () => {
    expect(await refusal(loginFor({}, {}))).toEqual({
      code: "request.validation.failed",
      detail: expect.stringMatching(/^nonce: /),
      askedProvider: false,
    });
    expect(await refusal(loginFor({}, { nonce: "" }))).toMatchObject({
      detail: expect.stringMatching(/^nonce: /),
    });
  });
});

describe("a slot's max_age_seconds is checked against the ID token's auth_time", () => {
  it("refuses a login at the provider older than max_age with auth.oauth.failed", async () => {
    idToken = await idTokenWith({ auth_time: now() - 600 });
    expect(await codeOf(loginFor({ maxAgeSeconds: 60 }))).toBe("auth.oauth.failed");
  });

  it("refuses an ID token without auth_time when the slot sets max_age", async () => {
    idToken = await idTokenWith();
    expect(await codeOf(loginFor({ maxAgeSeconds: 60 }))).toBe("auth.oauth.failed");
  });

  it("accepts a login within max_age", async () => {
    idToken = await idTokenWith({ auth_time: now() - 5 });
    expect(await codeOf(loginFor({ maxAgeSeconds: 60 }))).toBe("verified");
  });

  it("accepts a login of any age when the slot sets none", async () => {
    idToken = await idTokenWith({ auth_time: now() - 365 * 24 * 3600 });
    expect(await codeOf(loginFor())).toBe("verified");
  });
});

describe("a login is multi-factor only when the slot trusts the provider's and the ID token proves it (amr, acr)", () => {
  const trusting = { trustsProviderMfa: true, mfaAcrValues: ["phr", "urn:example:mfa"] };
  it.each([
    ["amr holds mfa", trusting, { amr: ["pwd", "mfa"] }, true],
    ["acr is one of the slot's", trusting, { acr: "urn:example:mfa" }, true],
    ["neither amr nor acr proves it", trusting, { amr: ["pwd"], acr: "urn:example:pwd" }, false],
    ["the ID token says nothing", trusting, {}, false],
    ["the slot does not trust the provider", { mfaAcrValues: ["phr"] }, { amr: ["mfa"], acr: "phr" }, false],
  ])("%s: %s", async (_, slot, claims, multiFactor) => {
    idToken = await idTokenWith(claims);
    expect((await loginFor(slot)).multiFactor).toBe(multiFactor);
  });
});

describe("the time of a provider's login", () => {
  it("is the ID token's auth_time", async () => {
    const authTime = now() - 120;
    idToken = await idTokenWith({ auth_time: authTime });
    expect((await loginFor()).authenticatedAt).toEqual(new Date(authTime * 1000));
  });

  it("is the time of the exchange when the ID token has none, or names a later one", async () => {
    for (const claims of [{}, { auth_time: now() + 3_600 }]) {
      idToken = await idTokenWith(claims);
      const before = Date.now();
      const { authenticatedAt } = await loginFor();
      expect(authenticatedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(authenticatedAt.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });
});

describe("ExchangeOAuthCode records a linked user's login at the session service", () => {
  const adminToken = randomBytes(32).toString("base64url");
  const recorded: RecordFederatedLoginRequest[] = [];
  let identity: RunningGrpcServer;
  let client: ServiceClient<typeof IdentityServiceService>;
  let companyId: string;
  let userId: string;
  beforeAll(async () => {
    identity = await startIdentityForTests({
      env: {
        GRPC_PLAINTEXT_DEV: "true",
        ADMIN_TOKEN_SHA256: hashAdminToken(adminToken),
        OAUTH_ALLOW_INSECURE_HTTP: "true",
      },
      session: {
        reserveSecretCheck: async () => ({
          outcome: CheckOutcome.ALLOWED,
          checkId: "check",
          retryAfterSeconds: 0,
          captchaRequired: false,
          credentialGeneration: "1",
        }),
        reportSecretCheck: async () => ({ sessionEnded: false, lockedOutUserId: "" }),
        revokeUserSessions: async () => ({ revoked: 0 }),
        recordFederatedLogin: async (request) => {
          recorded.push(request);
          return { checkId: `federated-${recorded.length}` };
        },
        ...new FakePasskeySessions().calls,
        getCredentialChange: async () => noCredentialChange,
      },
      logger: createLogger("identity", "silent"),
    });
    client = createServiceClient(IdentityServiceService, `127.0.0.1:${identity.port}`, {
      deadlineMs: 10_000,
      adminToken,
      transport: { kind: "plaintext" },
      server: "identity",
    });
    companyId = (await seedCompany(client)).id;
    userId = (await seedUser(client, companyId)).id;
    await client.setOAuthProvider({
      companyId,
      settings: providerSettings({
        slot: 1,
        issuer,
        clientId: "client-1",
        clientSecret: "secret",
        redirectUris: [redirectUri],
        trustsProviderMfa: true,
      }),
    });
    await client.linkOAuthIdentity({ companyId, userId, slot: 1, subject: "alice" });
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    client?.close();
    await identity?.stop(100);
  });
  const exchangeCode = (grant: { nonce?: string } = { nonce }) =>
    client.exchangeOAuthCode({ companyId, slot: 1, code: "code-1", redirectUri, ...grant });

  it("records the login with the provider's auth_time and multi_factor, and answers its check_id", async () => {
    const authTime = now() - 120;
    idToken = await idTokenWith({ auth_time: authTime, amr: ["pwd", "mfa"] });
    recorded.length = 0;
    const answer = await exchangeCode();
    expect(recorded).toEqual([
      { companyId, userId, authenticatedAt: new Date(authTime * 1000), multiFactor: true },
    ]);
    expect(answer).toMatchObject({
      subject: "alice",
      user: { id: userId },
      checkId: "federated-1",
      multiFactor: true,
    });
  });

  it("records nothing for a subject no user is linked to", async () => {
    idToken = await idTokenWith({ sub: "nobody" });
    recorded.length = 0;
    const answer = await exchangeCode();
    expect(answer).toMatchObject({ subject: "nobody", user: undefined, checkId: "" });
    expect(recorded).toEqual([]);
  });

  it("answers a code without its nonce with INVALID_ARGUMENT request.validation.failed naming the field, recording nothing", async () => {
    recorded.length = 0;
    const error = await errorOf(exchangeCode({}));
    expect(error?.code).toBe("request.validation.failed");
    expect(error?.message).toMatch(/^nonce: /);
    expect(recorded).toEqual([]);
  });
});
