import { createHash } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { browserModuleFiles } from "@auth/i18n";
import express from "express";
import helmet from "helmet";
import {
  bowserPath,
  i18nImportPath,
  i18nPath,
  type OAuthButton,
  type PageConfig,
  pageRoutes,
  totpQrPath,
  webauthnPath,
} from "../shared/page-config.js";
import { gatewayProxy } from "./gateway-proxy.js";
import { totpQr } from "./totp-qr.js";

export interface LoginPageOptions {
  /** Where the page's calls go (the page calls its own origin, which passes them on). */
  gatewayUrl: string;
  companyCode: string;
  apiKey: string;
  /** The company's OAuth provider slots to offer as buttons. */
  providers?: OAuthButton[];
  /** 0 (the default) takes a free port. */
  port?: number;
  host?: string;
}

export interface RunningLoginPage {
  url: string;
  close(): Promise<void>;
}

// The same from src/server (tests) and dist/server: the page's scripts are always the built ones.
const packageDir = fileURLToPath(new URL("../../", import.meta.url));
const staticDir = join(packageDir, "static");
const scriptsDir = join(packageDir, "dist");
/** The ES modules of @simplewebauthn/browser, which the page's import map names (no bundler here). */
const webauthnDir = dirname(fileURLToPath(import.meta.resolve("@simplewebauthn/browser")));
/** bowser's ES module, one file, which the page's import map names too. */
const bowserModule = fileURLToPath(import.meta.resolve("bowser"));
/** The page's words: @auth/i18n's modules, and FormatJS's, which they import (the import map names them too). */
const i18nModules = browserModuleFiles();

/**
 * The CSP source of the page's import map, its one inline script: allowed by its hash, so that the
 * page still runs no other inline script.
 */
function importMapSource(html: string): string {
  const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (map === undefined) throw new Error("index.html has no import map");
  return `'sha256-${createHash("sha256").update(map).digest("base64")}'`;
}

/** The page keeps a session token only in memory; nothing it loads comes from elsewhere. */
const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", importMapSource(readFileSync(join(staticDir, "index.html"), "utf8"))],
      // The company's logo is an https URL of its own host (docs/decisions.md, "Reference login
      // page"): any https origin for images, and nothing else from elsewhere.
      imgSrc: ["'self'", "https:"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // The recovery link's token is in the page's address: it must not leave in a Referer.
  referrerPolicy: { policy: "no-referrer" },
});

/**
 * Serves the reference login page of one company: the HTML document at the page's routes, its
 * scripts and styles, `/config.json` for the page, and the company's `/{company}/v2/auth/*` calls
 * (and its brand's GET) passed on to the gateway.
 */
export async function serveLoginPage(options: LoginPageOptions): Promise<RunningLoginPage> {
  const config: PageConfig = {
    companyCode: options.companyCode,
    apiKey: options.apiKey,
    providers: options.providers ?? [],
  };
  const app = express();
  app.disable("x-powered-by");
  app.use(securityHeaders);
  app.use((_request, response, next) => {
    response.setHeader("Cache-Control", "no-store");
    next();
  });
  app.get(Object.values(pageRoutes), (_request, response) => {
    response.sendFile("index.html", { root: staticDir });
  });
  app.get("/config.json", (_request, response) => {
    response.json(config);
  });
  app.use(express.static(staticDir, { index: false }));
  for (const scripts of ["page", "shared"])
    app.use(`/js/${scripts}`, express.static(join(scriptsDir, scripts)));
  app.use(webauthnPath, express.static(webauthnDir));
  app.get(bowserPath, (_request, response) => {
    response.type("text/javascript").sendFile(bowserModule);
  });
  app.use(i18nPath, express.static(i18nModules.directory));
  for (const [name, file] of Object.entries(i18nModules.imports))
    app.get(i18nImportPath(name), (_request, response) => {
      response.type("text/javascript").sendFile(file);
    });
  const proxy = gatewayProxy(options.gatewayUrl);
  app.post(`/${options.companyCode}/v2/auth/*operation`, proxy);
  app.get(`/${options.companyCode}/v2/auth/brand`, proxy);
  app.post(totpQrPath, express.json({ limit: "2kb" }), totpQr);

  const host = options.host ?? "127.0.0.1";
  const server = app.listen(options.port ?? 0, host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
