import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type ClientMetadata } from "oidc-provider";

/** A confidential client: it authenticates at the token endpoint with its secret. */
export const oidcClient = { clientId: "auth-suite", clientSecret: "oidc-client-secret" };
/** A public client (no secret, `token_endpoint_auth_method` none): PKCE alone binds its codes to it. */
export const oidcPublicClient = { clientId: "auth-suite-public" };
export const redirectUri = "https://app.example.com/oauth/callback";
export const secondRedirectUri = "https://app.example.com/oauth/other";

/** The acr values the provider knows; `urn:example:mfa` names its multi-factor login. */
export const acrValues = { multiFactor: "urn:example:mfa", password: "urn:example:pwd" };

/** How an account's login at the provider went, as its ID tokens then say. */
export interface ProviderLogin {
  /** RFC 8176 methods (`amr`), e.g. ["pwd", "mfa"]; none by default. */
  amr?: string[];
  /** The authentication context class (`acr`); none by default. */
  acr?: string;
  /** When the account logged in (`auth_time`), in seconds since the epoch; the moment of the login by default. */
  authTime?: number;
}

export interface AuthorizationOptions {
  /** The account that logs in at the provider (its subject). */
  account: string;
  nonce?: string;
  /** Sends a PKCE challenge for this verifier. */
  codeVerifier?: string;
  redirectUri?: string;
  /** oidcClient's by default; oidcPublicClient's for the public client. */
  clientId?: string;
  /** Sends `max_age` (OpenID Connect Core 3.1.2.1). */
  maxAge?: number;
  /** How the account logs in, from this request on (see `setLogin`). */
  login?: ProviderLogin;
}

/**
 * A real OpenID Connect provider (node-oidc-provider) on loopback, whose login and consent pages
 * finish by themselves for the account named in `login_hint`, so that a test can obtain real
 * authorization codes. Its ID tokens always carry `auth_time` (the clients ask for it) and carry the
 * `amr` and `acr` of the account's login when `setLogin` gave them. It counts the requests its token
 * endpoint was sent and keeps the parameters of its authorization requests, so that a test can tell
 * whether it was asked and what.
 */
export class TestOidcProvider {
  /** Each authorization request's parameters, in order. */
  readonly authorizationRequests: URLSearchParams[] = [];
  /** How many requests reached the token endpoint (code exchanges). */
  tokenRequests = 0;
  readonly #logins = new Map<string, ProviderLogin>();

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
  ) {}

  /** `redirectUris` are the clients' registered redirect URIs (a login page's callback, for example). */
  static async start(redirectUris = [redirectUri, secondRedirectUri]): Promise<TestOidcProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client: Omit<ClientMetadata, "client_id"> = {
      redirect_uris: redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      require_auth_time: true,
    };
    const provider = new Provider(issuer, {
      clients: [
        { ...client, client_id: oidcClient.clientId, client_secret: oidcClient.clientSecret },
        { ...client, client_id: oidcPublicClient.clientId, token_endpoint_auth_method: "none" },
      ],
      async findAccount(_context, sub) {
        return { accountId: sub, claims: async () => ({ sub, email: `${sub}@example.com` }) };
      },
      // acr and amr go in every ID token whose login had them; auth_time by require_auth_time.
      claims: {
        acr: null,
        amr: null,
        auth_time: null,
        sid: null,
        iss: null,
        openid: ["sub", "acr", "amr"],
        email: ["email"],
      },
      acrValues: Object.values(acrValues),
      interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      // What a provider asks of a public client (RFC 9700 2.1.1); a confidential one may go without.
      pkce: { required: (_context, registered) => registered.tokenEndpointAuthMethod === "none" },
      cookies: { keys: [randomBytes(16).toString("hex")] },
    });
    provider.on("server_error", () => {});
    const handle = provider.callback();
    const running = new TestOidcProvider(issuer, server);
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? "/", issuer);
      if (url.pathname === "/auth") running.authorizationRequests.push(url.searchParams);
      if (url.pathname === "/token") running.tokenRequests += 1;
      if (url.pathname.startsWith("/interaction/")) {
        running.#finishInteraction(provider, request, response).catch(() => response.writeHead(500).end());
      } else {
        handle(request, response);
      }
    });
    return running;
  }

  /**
   * How the account's logins at the provider go from now on: the `amr`, `acr` and `auth_time` its ID
   * tokens carry. (A login older than a request's `max_age` makes the provider ask for a login again,
   * which ends the same way: such requests end at the redirect limit.)
   */
  setLogin(account: string, login: ProviderLogin): void {
    this.#logins.set(account, login);
  }

  /** Runs the authorization request through login and consent and returns the code it ends with. */
  async authorizationCode(options: AuthorizationOptions): Promise<string> {
    if (options.login) this.setLogin(options.account, options.login);
    const target = options.redirectUri ?? redirectUri;
    const url = new URL(`${this.issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: options.clientId ?? oidcClient.clientId,
      redirect_uri: target,
      response_type: "code",
      scope: "openid email",
      login_hint: options.account,
      ...(options.nonce ? { nonce: options.nonce } : {}),
      ...(options.codeVerifier
        ? {
            code_challenge: createHash("sha256").update(options.codeVerifier).digest("base64url"),
            code_challenge_method: "S256",
          }
        : {}),
      ...(options.maxAge === undefined ? {} : { max_age: String(options.maxAge) }),
    }).toString();
    const cookies = new Map<string, string>();
    let next = url.toString();
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await fetch(next, {
        redirect: "manual",
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ""] = cookie.split(";");
        const [name = "", value = ""] = pair.split("=");
        cookies.set(name, value);
      }
      const location = response.headers.get("location");
      if (!location) throw new Error(`the provider stopped at ${response.status}: ${await response.text()}`);
      const resolved = new URL(location, next);
      if (resolved.href.startsWith(target)) {
        const code = resolved.searchParams.get("code");
        if (!code) throw new Error(`no code in ${resolved.href}`);
        return code;
      }
      next = resolved.href;
    }
    throw new Error("too many redirects");
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Logs in the account of `login_hint` as `setLogin` said, and grants what the client asked for. */
  async #finishInteraction(provider: Provider, request: IncomingMessage, response: ServerResponse) {
    const details = await provider.interactionDetails(request, response);
    if (details.prompt.name === "login") {
      const accountId = String(details.params.login_hint);
      const { amr, acr, authTime } = this.#logins.get(accountId) ?? {};
      await provider.interactionFinished(request, response, {
        login: { accountId, amr, acr, ts: authTime },
      });
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session?.accountId,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(
      request,
      response,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }
}
