/** A button that signs in with one of the company's OAuth provider slots. */
export interface OAuthButton {
  /** The company's provider slot: `provider_id` of auth/oauth, 1 to 5. */
  slot: number;
  /** The provider's name, shown as "Sign in with {label}". */
  label: string;
  /** The provider's authorization endpoint; the page adds the parameters of its request. */
  authorizationUrl: string;
  clientId: string;
  /** Space-separated scopes (`openid ...` for an OpenID Connect provider). */
  scope: string;
  /**
   * The slot's `max_age_seconds`, when it sets one: sent as `max_age`, so that the provider asks for
   * a login no older (docs/decisions.md, "OAuth"). Absent or 0: none, as the slot's 0.
   */
  maxAge?: number;
}

/** What the page reads from `/config.json`. */
export interface PageConfig {
  companyCode: string;
  /** The client app's API key: the page is a client app, which carries its key anyway. */
  apiKey: string;
  providers: OAuthButton[];
}

/**
 * The page's own addresses, one HTML document for all of them. The company's recovery link base is
 * `recoveryLink`; the OAuth providers redirect to `oauthCallback`.
 */
export const pageRoutes = {
  start: "/",
  recoveryLink: "/recover",
  oauthCallback: "/oauth/callback",
} as const;

/** The page server's QR code of an otpauth URI (POST `{ uri }`, answers SVG). */
export const totpQrPath = "/totp/qr";

/** Where the page server serves the ES modules of @simplewebauthn/browser, as index.html's import map says. */
export const webauthnPath = "/js/vendor/simplewebauthn";

/** Where the page server serves bowser's ES module, which names a session's browser and system. */
export const bowserPath = "/js/vendor/bowser.mjs";

/**
 * Where the page server serves @auth/i18n's modules, which the page's import map names
 * `@auth/i18n/` (docs/decisions.md, "Languages").
 */
export const i18nPath = "/js/vendor/i18n";

/** Where the page server serves a package that @auth/i18n's modules import by name (FormatJS's), as the import map says. */
export const i18nImportPath = (name: string): string => `/js/vendor/${name}.js`;
