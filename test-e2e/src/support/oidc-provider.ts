import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export const oidcClient = { clientId: "auth-suite", clientSecret: "oidc-client-secret" };
export const redirectUri = "https://app.example.com/oauth/callback";
export const secondRedirectUri = "https://app.example.com/oauth/other";

export interface AuthorizationOptions {
  /** The account that logs in at the provider (its subject). */
  account: string;
  nonce?: string;
  /** Sends a PKCE challenge for this verifier. */
  codeVerifier?: string;
  redirectUri?: string;
}

/**
 * A real OpenID Connect provider (node-oidc-provider) on loopback, whose login and consent pages
 * finish by themselves for the account named in `login_hint`, so that a test can obtain real
 * authorization codes.
 */
export class TestOidcProvider {
  private constructor(
    readonly issuer: string,
    private readonly server: Server,
  ) {}

  /** `redirectUris` are the client's registered redirect URIs (a login page's callback, for example). */
  static async start(redirectUris = [redirectUri, secondRedirectUri]): Promise<TestOidcProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: oidcClient.clientId,
          client_secret: oidcClient.clientSecret,
          redirect_uris: redirectUris,
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      async findAccount(_context, sub) {
        return { accountId: sub, claims: async () => ({ sub, email: `${sub}@example.com` }) };
      },
      interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => false },
      cookies: { keys: [randomBytes(16).toString("hex")] },
    });
    provider.on("server_error", () => {});
    const handle = provider.callback();
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      if (request.url?.startsWith("/interaction/")) {
        finishInteraction(provider, request, response).catch(() => response.writeHead(500).end());
      } else {
        handle(request, response);
      }
    });
    return new TestOidcProvider(issuer, server);
  }

  /** Runs the authorization request through login and consent and returns the code it ends with. */
  async authorizationCode(options: AuthorizationOptions): Promise<string> {
    const target = options.redirectUri ?? redirectUri;
    const url = new URL(`${this.issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: oidcClient.clientId,
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
}

async function finishInteraction(provider: Provider, request: IncomingMessage, response: ServerResponse) {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(request, response, {
      login: { accountId: String(details.params.login_hint) },
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
