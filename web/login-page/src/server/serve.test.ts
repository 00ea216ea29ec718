import { createHash } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { browserImports, languages } from "@auth/i18n";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningLoginPage, serveLoginPage } from "./serve.js";

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage["headers"];
  body: string;
}

const providers = [
  {
    slot: 2,
    label: "Example ID",
    authorizationUrl: "https://id.example.com/authorize",
    clientId: "page",
    scope: "openid email",
  },
];

/** Where the page's import map sends a module's name: its own entry, or the longest prefix ending in "/". */
async function importMapped(pageUrl: string, specifier: string): Promise<string | undefined> {
  const html = await (await fetch(pageUrl)).text();
  const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
  const { imports } = JSON.parse(map) as { imports: Record<string, string> };
  const prefix = Object.keys(imports)
    .filter((name) => name.endsWith("/") && specifier.startsWith(name))
    .sort((a, b) => b.length - a.length)[0];
  return imports[specifier] ?? (prefix && `${imports[prefix]}${specifier.slice(prefix.length)}`);
}

describe("the login page's server", () => {
  let gateway: Server;
  let page: RunningLoginPage;
  let received: Received[];

  beforeAll(async () => {
    // A stand-in for the gateway: records each request and refuses it like a rate limit.
    gateway = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      received.push({ method: request.method, url: request.url, headers: request.headers, body });
      response.writeHead(429, { "content-type": "application/json", "retry-after": "7", "x-internal": "1" });
      response.end(JSON.stringify({ status: "error", error_code: "request.ratelimit.exceeded" }));
    });
    gateway.listen(0, "127.0.0.1");
    await once(gateway, "listening");
    page = await serveLoginPage({
      gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
      companyCode: "acme",
      apiKey: "acme-page-key-0123456789abcdef",
      providers,
    });
  });
  beforeEach(() => {
    received = [];
  });
  afterAll(async () => {
    await page?.close();
    gateway?.close();
  });

  describe("the page", () => {
    it.each(["/", "/recover", "/oauth/callback"])("serves the page's one document at %s", async (path) => {
      const response = await fetch(`${page.url}${path}?token=abc`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain('<script type="module" src="/js/page/main.js">');
    });

    it("loads nothing from elsewhere but images over https (the company's logo), sends no Referer and is never cached", async () => {
      const response = await fetch(page.url);
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(response.headers.get("content-security-policy")).toContain("img-src 'self' https:");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("cache-control")).toBe("no-store");
    });

    it("serves its scripts as JavaScript modules, and its styles", async () => {
      for (const [path, type] of [
        ["/js/page/main.js", /javascript/],
        ["/js/shared/page-config.js", /javascript/],
        ["/styles.css", /text\/css/],
      ] as const) {
        const response = await fetch(`${page.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(response.headers.get("content-type"), path).toMatch(type);
      }
    });

    it.each([
      ["@simplewebauthn/browser", "startAuthentication"],
      ["bowser", "getParser"],
      ["@auth/i18n/translator.js", "translator"],
      ["@auth/i18n/choose-language.js", "chooseLanguage"],
      ...languages.map((language) => [`@auth/i18n/catalogues/${language}/index.js`, language]),
      ...browserImports.map((name) => [name, "export"]),
    ])("serves %s's ES modules where the page's import map points", async (name, exported) => {
      const entry = await importMapped(page.url, name);
      expect(entry, name).toBeDefined();
      const response = await fetch(`${page.url}${entry}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/javascript/);
      expect(await response.text()).toContain(exported);
    });

    it("runs no inline script but the import map, which its policy allows by hash", async () => {
      const response = await fetch(page.url);
      const html = await response.text();
      const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
      const hash = createHash("sha256").update(map).digest("base64");
      expect(response.headers.get("content-security-policy")).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(html.match(/<script/g)).toHaveLength(2);
    });

    it("serves none of the server's own modules", async () => {
      expect((await fetch(`${page.url}/js/server/serve.js`)).status).toBe(404);
    });

    it("tells the page its company, API key and OAuth buttons in /config.json", async () => {
      const response = await fetch(`${page.url}/config.json`);
      expect(await response.json()).toEqual({
        companyCode: "acme",
        apiKey: "acme-page-key-0123456789abcdef",
        providers,
      });
    });
  });

  describe("the calls to the gateway", () => {
    it("passes the company's auth calls on, with the client's address instead of the one it claims", async () => {
      const response = await fetch(`${page.url}/acme/v2/auth/recovery/checkotp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": "acme-page-key-0123456789abcdef",
          authorization: "Bearer token-1",
          "user-agent": "Firefox/140.0",
          "accept-language": "de-CH, de;q=0.9",
          "x-forwarded-for": "203.0.113.9",
          cookie: "a=b",
        },
        body: '{"otp":"123456"}',
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        method: "POST",
        url: "/acme/v2/auth/recovery/checkotp",
        body: '{"otp":"123456"}',
        headers: {
          "content-type": "application/json",
          "x-api-key": "acme-page-key-0123456789abcdef",
          authorization: "Bearer token-1",
          "user-agent": "Firefox/140.0",
          "accept-language": "de-CH, de;q=0.9",
          "x-forwarded-for": "127.0.0.1",
        },
      });
      expect(received[0]?.headers.cookie).toBeUndefined();
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("7");
      expect(response.headers.get("x-internal")).toBeNull();
      expect(await response.json()).toEqual({ status: "error", error_code: "request.ratelimit.exceeded" });
    });

    it("passes the company's brand on as a GET, with the same headers and no body", async () => {
      const response = await fetch(`${page.url}/acme/v2/auth/brand`, {
        headers: { "x-api-key": "acme-page-key-0123456789abcdef", "x-forwarded-for": "203.0.113.9" },
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        method: "GET",
        url: "/acme/v2/auth/brand",
        body: "",
        headers: { "x-api-key": "acme-page-key-0123456789abcdef", "x-forwarded-for": "127.0.0.1" },
      });
      expect(response.status).toBe(429);
    });

    it("passes on no other GET", async () => {
      const response = await fetch(`${page.url}/acme/v2/auth/sessions`);
      expect(response.status).toBe(404);
      expect(received).toHaveLength(0);
    });

    it("passes on no other company's calls", async () => {
      const response = await fetch(`${page.url}/other/v2/auth/login`, { method: "POST", body: "{}" });
      expect(response.status).toBe(404);
      expect(received).toHaveLength(0);
    });

    it("answers service.unavailable with the envelope when the gateway cannot be reached", async () => {
      const unreachable = await serveLoginPage({
        gatewayUrl: "http://127.0.0.1:1",
        companyCode: "acme",
        apiKey: "acme-page-key-0123456789abcdef",
      });
      try {
        const response = await fetch(`${unreachable.url}/acme/v2/auth/login`, { method: "POST", body: "{}" });
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({ status: "error", error_code: "service.unavailable" });
      } finally {
        await unreachable.close();
      }
    });
  });

  describe("the QR code of an authenticator app (POST /totp/qr)", () => {
    const qr = (body: unknown) =>
      fetch(`${page.url}/totp/qr`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    it("draws an otpauth URI as SVG, the secret in the body and never in an address", async () => {
      const response = await qr({ uri: "otpauth://totp/Acme:ann?secret=JBSWY3DPEHPK3PXP&issuer=Acme" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      expect(await response.text()).toMatch(/^<svg/);
    });

    it("draws nothing but an otpauth URI", async () => {
      for (const body of [{ uri: "https://evil.example" }, {}, { uri: 7 }])
        expect((await qr(body)).status).toBe(400);
    });
  });
});
