import type { OAuthButton } from "../shared/page-config.js";

/** What one authorization request carries beside the button's settings. */
export interface RequestSecrets {
  redirectUri: string;
  state: string;
  nonce: string;
  /** The PKCE challenge (RFC 7636, S256) of the request's verifier. */
  codeChallenge: string;
}

/**
 * The provider's authorization request (RFC 6749 4.1.1) with a `state`, a PKCE challenge (RFC 7636)
 * and an OpenID Connect nonce, and `max_age` when the company's slot sets one (OpenID Connect Core
 * 3.1.2.1; docs/decisions.md, "OAuth"): the provider then asks the user to log in again when their
 * login there is older, and the suite refuses an ID token whose `auth_time` is.
 */
export function authorizationUrl(provider: OAuthButton, request: RequestSecrets): URL {
  const url = new URL(provider.authorizationUrl);
  const parameters = {
    response_type: "code",
    client_id: provider.clientId,
    redirect_uri: request.redirectUri,
    scope: provider.scope,
    state: request.state,
    nonce: request.nonce,
    code_challenge: request.codeChallenge,
    code_challenge_method: "S256",
    // 0 is the slot's "any age", not OpenID Connect's max_age=0 ("log in again now").
    ...(provider.maxAge ? { max_age: String(provider.maxAge) } : {}),
  };
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url;
}
