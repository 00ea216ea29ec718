import { AuthError } from "@auth/errors";
import {
  allowInsecureRequests,
  authorizationCodeGrant,
  ClientSecretBasic,
  Configuration,
  discovery,
  enableNonRepudiationChecks,
  fetchProtectedResource,
  None,
} from "openid-client";
import type { OAuthProviderRow } from "../schema.js";

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

/**
 * Exchanges authorization codes at the providers of the slots with openid-client: discovery and
 * ID token verification (JWKS signature, issuer, audience, expiry, nonce) for OpenID Connect,
 * userinfo for plain OAuth 2.0. Configurations are cached per slot and version of its settings.
 */
export class OAuthExchange {
  readonly #cache = new Map<string, { configuration: Configuration; expiresAt: number }>();

  constructor(private readonly options: OAuthExchangeOptions) {}

  /** The verified subject of the user the code was issued for; auth.oauth.failed for any failure. */
  async subjectFor(provider: OAuthProviderRow, clientSecret: string, grant: CodeGrant): Promise<string> {
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
      const tokens = await authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: grant.codeVerifier,
        expectedNonce: grant.nonce,
        idTokenExpected: provider.kind === "oidc",
      });
      const claims =
        provider.kind === "oidc"
          ? tokens.claims()
          : await userinfo(configuration, provider, tokens.access_token);
      const subject = claims?.[provider.subjectClaim];
      if (typeof subject !== "string" && typeof subject !== "number") {
        throw oauthFailed(`the provider gave no ${provider.subjectClaim} claim`);
      }
      return String(subject);
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
