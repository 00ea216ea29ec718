import { type OAuthButton, pageRoutes } from "../shared/page-config.js";
import { authorizationUrl } from "./authorization-request.js";
import type { Flow } from "./flow.js";
import { messageFor } from "./messages.js";
import { text } from "./words.js";

/** What an authorization request was started with, kept for the redirect back under its `state`. */
interface Pending {
  slot: number;
  codeVerifier: string;
  nonce: string;
}

const pendingKey = (state: string) => `oauth-request:${state}`;
const redirectUri = () => `${location.origin}${pageRoutes.oauthCallback}`;

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

const randomToken = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

/**
 * Sends the browser to the provider's authorization endpoint (`authorizationUrl`). What the redirect
 * back needs is kept in sessionStorage: it outlives the navigation, and only this tab sees it.
 */
export async function startOAuth(provider: OAuthButton): Promise<void> {
  const state = randomToken();
  const pending: Pending = { slot: provider.slot, codeVerifier: randomToken(), nonce: randomToken() };
  const challenge = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(pending.codeVerifier));
  sessionStorage.setItem(pendingKey(state), JSON.stringify(pending));
  location.assign(
    authorizationUrl(provider, {
      redirectUri: redirectUri(),
      state,
      nonce: pending.nonce,
      codeChallenge: base64url(new Uint8Array(challenge)),
    }),
  );
}

/** The provider's redirect back: its code goes to auth/oauth with what the request was started with. */
export async function finishOAuth(flow: Flow): Promise<void> {
  const parameters = new URLSearchParams(location.search);
  history.replaceState(null, "", pageRoutes.start);
  const key = pendingKey(parameters.get("state") ?? "");
  const stored = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  const code = parameters.get("code");
  if (!stored || !code) {
    flow.restart({
      error: text(parameters.has("error") ? "oauth.providerRefused" : "oauth.notStarted"),
    });
    return;
  }
  const pending = JSON.parse(stored) as Pending;
  const reply = await flow.begin("oauth", {
    provider_id: pending.slot,
    code,
    redirect_uri: redirectUri(),
    code_verifier: pending.codeVerifier,
    nonce: pending.nonce,
  });
  if (reply.answer.status === "success") flow.next(reply.answer);
  else flow.restart({ error: messageFor(reply) });
}
