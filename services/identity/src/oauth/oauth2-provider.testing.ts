import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type OAuthProviderSettings, ProviderKind } from "@auth/proto/identity";

/**
 * A plain OAuth 2.0 provider (no OpenID Connect) on loopback, in the GitHub manner: the token
 * endpoint exchanges codes for access tokens, the userinfo endpoint answers `{ "id": ... }`.
 */
export class TestOAuth2Provider {
  readonly codes = new Map<string, { account: number; redirectUri: string }>();
  readonly tokens = new Map<string, number>();
  /** The token endpoint takes requests and never answers them. */
  hangs = false;

  private constructor(
    readonly origin: string,
    private readonly server: Server,
    readonly client: { clientId: string; clientSecret: string },
  ) {}

  static async start(): Promise<TestOAuth2Provider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new TestOAuth2Provider(origin, server, {
      clientId: "plain-client",
      clientSecret: "plain-secret",
    });
    server.on("request", async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      const json = (status: number, value: unknown) =>
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (request.url === "/token" && request.method === "POST") {
        if (provider.hangs) return;
        const form = new URLSearchParams(body);
        // RFC 6749 2.3.1: id and secret are form-encoded, then joined and base64-encoded.
        const basic = Buffer.from(
          (request.headers.authorization ?? "").replace(/^Basic /, ""),
          "base64",
        ).toString();
        const [id = "", secret = ""] = basic
          .split(":")
          .map((part) => decodeURIComponent(part.replace(/\+/g, " ")));
        const grant = provider.codes.get(form.get("code") ?? "");
        if (id !== provider.client.clientId || secret !== provider.client.clientSecret) {
          return json(401, { error: "invalid_client" });
        }
        if (!grant || grant.redirectUri !== form.get("redirect_uri"))
          return json(400, { error: "invalid_grant" });
        provider.codes.delete(form.get("code") ?? "");
        const accessToken = randomBytes(16).toString("hex");
        provider.tokens.set(accessToken, grant.account);
        return json(200, { access_token: accessToken, token_type: "bearer" });
      }
      if (request.url === "/user") {
        const account = provider.tokens.get((request.headers.authorization ?? "").replace(/^Bearer /i, ""));
        return account === undefined
          ? json(401, { message: "Bad credentials" })
          : json(200, { id: account, login: `user${account}` });
      }
      json(404, {});
    });
    return provider;
  }

  /** This provider in a company's slot, with the redirect URIs the company allows. */
  slotSettings(slot: number, redirectUris: string[]): Partial<OAuthProviderSettings> & { slot: number } {
    return {
      slot,
      kind: ProviderKind.OAUTH2,
      name: "Test OAuth 2.0",
      authorizationEndpoint: `${this.origin}/authorize`,
      tokenEndpoint: `${this.origin}/token`,
      userinfoEndpoint: `${this.origin}/user`,
      clientId: this.client.clientId,
      clientSecret: this.client.clientSecret,
      redirectUris,
      subjectClaim: "id",
    };
  }

  /** A code the provider issued for the account, as its authorization page would have. */
  issueCode(account: number, redirectUri: string): string {
    const code = randomBytes(8).toString("hex");
    this.codes.set(code, { account, redirectUri });
    return code;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
