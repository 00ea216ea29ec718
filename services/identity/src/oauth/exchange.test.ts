import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthError } from "@auth/errors";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OAuthProviderRow } from "../schema.js";
import { OAuthExchange } from "./exchange.js";

const redirectUri = "https://app.example.com/cb";
type Keys = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A hand-made OpenID Connect provider: its token endpoint answers whatever ID token the test
 * prepared, so that each of the ID token checks can be shown to refuse.
 */
let server: Server;
let issuer: string;
let published: Keys;
let idToken = "";

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
    for await (const _ of request);
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
    if (request.url === "/token")
      return json({ access_token: "at", token_type: "Bearer", id_token: idToken });
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const provider = (): OAuthProviderRow => ({
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
  updatedAt: new Date(0),
});
const exchange = new OAuthExchange({ allowInsecureHttp: true, timeoutSeconds: 2, cacheMs: 60_000 });
const subjectFor = (nonce?: string) =>
  exchange.subjectFor(provider(), "secret", { code: "code-1", redirectUri, nonce });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "verified",
    (error: AuthError) => error.code,
  );

describe("ID token verification", () => {
  it("accepts a token signed with a published key, for this client, from this issuer, in time", async () => {
    idToken = await sign({ iss: issuer, aud: "client-1", sub: "alice" });
    expect(await subjectFor()).toBe("alice");
  });

  it.each([
    [
      "signed with a key the provider does not publish",
      async () => sign({ iss: issuer, aud: "client-1", sub: "a" }, await generateKeyPair("ES256")),
    ],
    ["for another client", async () => sign({ iss: issuer, aud: "someone-else", sub: "a" })],
    ["from another issuer", async () => sign({ iss: "https://evil.example.com", aud: "client-1", sub: "a" })],
    ["expired", async () => sign({ iss: issuer, aud: "client-1", sub: "a" }, published, "-10m")],
    [
      "with a nonce nobody asked for",
      async () => sign({ iss: issuer, aud: "client-1", sub: "a", nonce: "n" }),
    ],
  ])("refuses a token %s with auth.oauth.failed", async (_, token) => {
    idToken = await token();
    expect(await codeOf(subjectFor())).toBe("auth.oauth.failed");
  });

  it("requires the nonce the client names", async () => {
    idToken = await sign({ iss: issuer, aud: "client-1", sub: "a", nonce: "n-1" });
    expect(await codeOf(subjectFor("n-2"))).toBe("auth.oauth.failed");
    expect(await codeOf(subjectFor("n-1"))).toBe("verified");
  });

  it("refuses a redirect URI the slot does not list, before asking the provider", async () => {
    const error = (await exchange
      .subjectFor(provider(), "secret", { code: "c", redirectUri: "https://app.example.com/other" })
      .catch((e) => e)) as AuthError;
    expect(error.code).toBe("auth.oauth.failed");
  });
});
