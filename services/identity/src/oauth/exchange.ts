import { AuthError } from "@auth/errors";
import type { Configuration, IDToken } from "openid-client";
import type { OAuthProviderRow } from "../schema.js";
import { openidClient } from "./openid-client.js";

export interface OAuthExchangeOptions {
  /** Plain-HTTP providers (tests on loopback only). */
  allowInsecureHttp: boolean;
  /** Seconds each request to a provider may take. */
  timeoutSeconds: number;
  /** How long a discovered configuration is kept. */
  cacheMs: number;
}

export interface CodeGrant {
  code: string;
  redirectUri: string;
  codeVerifier?: string;
  nonce?: string;
}

/** What a provider verified: whose login it was, when, and whether it proved several factors. */
export interface ProviderLogin {
  subject: string;
  /** The ID token's `auth_time` (never later than now); without one, the time of the exchange. */
  authenticatedAt: Date;
  /** The slot trusts the provider's multi-factor logins and the ID token proves one. */
  multiFactor: boolean;
}

/** RFC 7636 4.1: 43 to 128 characters of the unreserved set. */
const codeVerifierShape = /^[A-Za-z0-9\-._~]{43,128}$/;

const incomplete = (detail: string) => new AuthError("request.validation.failed", { detail });

/**
 * What a code must come with for its slot, checked before the provider is asked (docs/decisions.md,
 * "OAuth"): a public client's code its PKCE verifier (nothing else binds the code to the client
 * that asked for it), a verifier RFC 7636's shape, and an OpenID Connect slot's code the nonce its
 * ID token must carry.
 */
function assertGrantComplete(provider: OAuthProviderRow, publicClient: boolean, grant: CodeGrant): void {
  if (grant.codeVerifier !== undefined && !codeVerifierShape.test(grant.codeVerifier))
    throw incomplete(
      "code_verifier: must be 43 to 128 characters of A-Z, a-z, 0-9, -, ., _ and ~ (RFC 7636)",
    );
  if (publicClient && grant.codeVerifier === undefined)
    throw incomplete("code_verifier: is required by a public client (PKCE)");
  if (provider.kind === "oidc" && !grant.nonce)
    throw incomplete("nonce: is required by an OpenID Connect provider");
}

/**
 * Whether the ID token proves a multi-factor login the slot trusts (docs/decisions.md, "OAuth"):
 * `amr` holds "mfa" (RFC 8176), or `acr` is one of the slot's.
 */
function provesMultiFactor(provider: OAuthProviderRow, idToken: IDToken): boolean {
  if (!provider.trustsProviderMfa) return false;
  const { amr, acr } = idToken;
  return (
    (Array.isArray(amr) && amr.includes("mfa")) ||
    (typeof acr === "string" && provider.mfaAcrValues.includes(acr))
  );
}

/** A provider's clock ahead of ours does not make a login more recent than now. */
function authenticatedAtOf(idToken: IDToken): Date {
  const now = Date.now();
  return new Date(idToken.auth_time === undefined ? now : Math.min(idToken.auth_time * 1000, now));
}

/** The one form redirect URIs are compared in. */
export function normalizeRedirectUri(uri: string): string {
  return new URL(uri).href;
}

const oauthFailed = (detail: string, cause?: unknown) =>
  new AuthError("auth.oauth.failed", { detail, cause });

/** A plain OAuth 2.0 provider's user endpoint, which (unlike OpenID Connect's) need not have `sub`. */
async function userinfo(
  configuration: Configuration,
  provider: OAuthProviderRow,
  accessToken: string,
): Promise<Record<string, unknown>> {
  const { fetchProtectedResource } = await openidClient();
  const response = await fetchProtectedResource(
    configuration,
    accessToken,
    new URL(provider.userinfoEndpoint),
    "GET",
  );
  if (!response.ok) throw oauthFailed(`userinfo answered ${response.status}`);
  const body: unknown = await response.json();
  if (typeof body !== "object" || body === null) throw oauthFailed("userinfo answered no JSON object");
  return body as Record<string, unknown>;
}

/** The subject claim the slot names, of an ID token or a userinfo answer. */
function subjectOf(provider: OAuthProviderRow, claims: Record<string, unknown>): string {
  const subject = claims[provider.subjectClaim];
  if (typeof subject !== "string" && typeof subject !== "number") {
    throw oauthFailed(`the provider gave no ${provider.subjectClaim} claim`);
  }
  return String(subject);
}

/**
 * Exchanges authorization codes at the providers of the slots with openid-client: discovery and
 * ID token verification (JWKS signature, issuer, audience, expiry, nonce, and auth_time against the
 * slot's max_age) for OpenID Connect, userinfo for plain OAuth 2.0. Configurations are cached per
 * slot and version of its settings.
 */
export class OAuthExchange {
  readonly #cache = new Map<string, { configuration: Configuration; expiresAt: number }>();

  constructor(private readonly options: OAuthExchangeOptions) {}

  /**
   * The verified login the code was issued for; request.validation.failed for a code without what
   * its slot requires, auth.oauth.failed for any failure at the provider.
   */
  async loginFor(provider: OAuthProviderRow, clientSecret: string, grant: CodeGrant): Promise<ProviderLogin> {
    assertGrantComplete(provider, clientSecret === "", grant);
    let redirectUri: string;
    try {
      redirectUri = normalizeRedirectUri(grant.redirectUri);
    } catch {
      throw oauthFailed("redirect_uri is no URL");
    }
    if (!provider.redirectUris.includes(redirectUri))
      throw oauthFailed("redirect_uri not allowed for this provider");
    try {
      const configuration = await this.#configuration(provider, clientSecret);
      const callback = new URL(redirectUri);
      callback.searchParams.set("code", grant.code);
      // The client tells us which provider issued the code; the issuer check has nothing more to add.
      const metadata = configuration.serverMetadata();
      if (metadata.authorization_response_iss_parameter_supported)
        callback.searchParams.set("iss", metadata.issuer);
      const { authorizationCodeGrant } = await openidClient();
      const tokens = await authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: grant.codeVerifier,
        expectedNonce: grant.nonce,
        idTokenExpected: provider.kind === "oidc",
        // openid-client then requires auth_time, no older than this (with its clock tolerance).
        maxAge: provider.maxAgeSeconds > 0 ? provider.maxAgeSeconds : undefined,
      });
      if (provider.kind === "oauth2") {
        const claims = await userinfo(configuration, provider, tokens.access_token);
        return { subject: subjectOf(provider, claims), authenticatedAt: new Date(), multiFactor: false };
      }
      const idToken = tokens.claims();
      if (!idToken) throw oauthFailed("the provider gave no ID token");
      return {
        subject: subjectOf(provider, idToken),
        authenticatedAt: authenticatedAtOf(idToken),
        multiFactor: provesMultiFactor(provider, idToken),
      };
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw oauthFailed(error instanceof Error ? error.message : "provider verification failed", error);
    }
  }

  async #configuration(provider: OAuthProviderRow, clientSecret: string): Promise<Configuration> {
    const key = `${provider.companyId}:${provider.slot}:${provider.updatedAt.getTime()}`;
    const cached = this.#cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.configuration;
    const configuration = await this.#configure(provider, clientSecret);
    this.#cache.set(key, { configuration, expiresAt: Date.now() + this.options.cacheMs });
    return configuration;
  }

  async #configure(provider: OAuthProviderRow, clientSecret: string): Promise<Configuration> {
    const {
      allowInsecureRequests,
      ClientSecretBasic,
      Configuration,
      discovery,
      enableNonRepudiationChecks,
      None,
    } = await openidClient();
    const authentication = clientSecret ? ClientSecretBasic(clientSecret) : None();
    const insecure = this.options.allowInsecureHttp ? [allowInsecureRequests] : [];
    if (provider.kind === "oidc") {
      return discovery(new URL(provider.issuer), provider.clientId, undefined, authentication, {
        execute: [...insecure, enableNonRepudiationChecks],
        timeout: this.options.timeoutSeconds,
      });
    }
    const configuration = new Configuration(
      {
        issuer: new URL(provider.tokenEndpoint).origin,
        authorization_endpoint: provider.authorizationEndpoint || undefined,
        token_endpoint: provider.tokenEndpoint,
        userinfo_endpoint: provider.userinfoEndpoint,
      },
      provider.clientId,
      undefined,
      authentication,
    );
    for (const apply of insecure) apply(configuration);
    configuration.timeout = this.options.timeoutSeconds;
    return configuration;
  }
}
