import { describe, expect, it } from "vitest";
import type { OAuthButton } from "../shared/page-config.js";
import { authorizationUrl } from "./authorization-request.js";

const button: OAuthButton = {
  slot: 2,
  label: "Example ID",
  authorizationUrl: "https://id.example.com/authorize?prompt=select_account",
  clientId: "page",
  scope: "openid email",
};
const request = {
  redirectUri: "https://login.example.com/oauth/callback",
  state: "s-1",
  nonce: "n-1",
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
};
const parametersOf = (url: URL) => Object.fromEntries(url.searchParams);

describe("the authorization request of an OAuth button", () => {
  it("asks for a code with the state, the nonce and an S256 PKCE challenge, beside the provider's own parameters", () => {
    const url = authorizationUrl(button, request);
    expect(url.origin + url.pathname).toBe("https://id.example.com/authorize");
    expect(parametersOf(url)).toEqual({
      prompt: "select_account",
      response_type: "code",
      client_id: "page",
      redirect_uri: "https://login.example.com/oauth/callback",
      scope: "openid email",
      state: "s-1",
      nonce: "n-1",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    });
  });

  it("sends the slot's max_age when the button has one", () => {
    expect(authorizationUrl({ ...button, maxAge: 300 }, request).searchParams.get("max_age")).toBe("300");
  });

  it("sends no max_age without one, nor for 0, which is the slot's any age", () => {
    expect(authorizationUrl(button, request).searchParams.has("max_age")).toBe(false);
    expect(authorizationUrl({ ...button, maxAge: 0 }, request).searchParams.has("max_age")).toBe(false);
  });
});
