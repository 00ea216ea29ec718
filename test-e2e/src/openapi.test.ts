import { ApiDocument } from "@auth/testing/api";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type ApiResponse, call } from "./support/api.js";
import { createCompany, createDisclaimer, createUser, type TestCompany } from "./support/fixtures.js";

const gateway = () => inject("gatewayUrl");

describe("GET /openapi.json", () => {
  it("answers the OpenAPI 3.1 document as JSON", async () => {
    const response = await fetch(`${gateway()}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(((await response.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("describes only paths the gateway answers, each with the method it takes", async () => {
    const { paths } = (await (await fetch(`${gateway()}/openapi.json`)).json()) as {
      paths: Record<string, { get?: object; post?: object }>;
    };
    // The spec's 13, recovery/checklink, the user's own sessions and security events,
    // authenticator app, passkeys (a login's and the user's own), backup codes, the user's own
    // change of password, phone and e-mail, and the company's brand (docs/api-contract.md).
    expect(Object.keys(paths)).toHaveLength(33);
    for (const [path, operations] of Object.entries(paths)) {
      const response = await fetch(`${gateway()}${path.replace("{company_code}", "acme")}`, {
        method: operations.get ? "GET" : "POST",
      });
      expect(((await response.json()) as { error_code: string }).error_code, path).toBe(
        "auth.apikey.missing",
      );
    }
  });
});

describe("GET /docs", () => {
  it("answers the interactive reference page as HTML, under a policy of its own", async () => {
    const response = await fetch(`${gateway()}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toContain("upgrade-insecure-requests");
  });

  it("loads its scripts and styles from the gateway itself, not from a CDN", async () => {
    const page = await (await fetch(`${gateway()}/docs`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url ?? "");
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\//);
      const response = await fetch(`${gateway()}${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get("content-type"), asset).toMatch(/^(text\/javascript|text\/css|image\/png)/);
    }
  });

  it("lets browsers keep Swagger UI's own files for a day, and nothing else", async () => {
    const cacheControl = async (path: string) =>
      (await fetch(`${gateway()}${path}`)).headers.get("cache-control");
    expect(await cacheControl("/docs/swagger-ui-bundle.js")).toBe("public, max-age=86400");
    expect(await cacheControl("/docs/swagger-ui.css")).toBe("public, max-age=86400");
    for (const path of ["/docs", "/docs/reference.js", "/openapi.json"]) {
      expect(await cacheControl(path), path).toBe("no-store");
    }
  });

  it.each([
    ["POST", "/openapi.json"],
    ["POST", "/docs"],
    ["GET", "/docs/nothing"],
  ])("keeps the envelope for %s %s", async (method, path) => {
    const response = await fetch(`${gateway()}${path}`, { method });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: "error",
      error_code: "request.route.notfound",
      error_message: expect.any(String),
    });
  });
});

describe("answers and the document", () => {
  let document: ApiDocument;
  let company: TestCompany;
  beforeAll(async () => {
    [document, company] = await Promise.all([ApiDocument.served(gateway()), createCompany()]);
  });
  const answer = (operation: string, response: ApiResponse) => ({ operation, method: "POST", ...response });
  const post = async (operation: string, body: Record<string, unknown>, token?: string) => {
    const response = await call(company.code, operation, { apiKey: company.apiKey, token, body });
    expect(document.problemsOf(answer(operation, response))).toEqual([]);
    return response;
  };

  it("describes the answers of a login, with its errors", async () => {
    const user = await createUser(company);
    await post("login", { login_id: "nobody" });
    await post("checkpassword", { password: "x" });
    await post("recovery/recover", { login_id: user.loginName });
    const start = () => post("login", { login_id: user.loginName });
    await post("checkpassword", { password: "wrong" }, String((await start()).body.session_token));
    const authorized = await post(
      "checkpassword",
      { password: user.password },
      String((await start()).body.session_token),
    );
    expect(authorized.body.session_state).toBe("authorized");
    await post("logout", {}, String(authorized.body.session_token));
  });

  it("describes the disclaimers an error lists", async () => {
    const withTerms = await createCompany();
    await createDisclaimer(withTerms, "terms");
    const user = await createUser(withTerms);
    const started = await call(withTerms.code, "login", {
      apiKey: withTerms.apiKey,
      body: { login_id: user.loginName },
    });
    const refused = await call(withTerms.code, "checkpassword", {
      apiKey: withTerms.apiKey,
      token: String(started.body.session_token),
      body: { password: user.password },
    });
    expect(refused.body.error_code).toBe("auth.disclaimer.invalid");
    expect(document.problemsOf(answer("checkpassword", refused))).toEqual([]);
  });

  it.each<[string, number, Record<string, unknown>]>([
    [
      "a field beyond the document",
      200,
      {
        status: "success",
        session_token: "t",
        session_state: "checkotp",
        disclaimers_required: [],
        user_phone: "+1",
        extra: 1,
      },
    ],
    [
      "a status the endpoint never answers",
      418,
      { status: "error", error_code: "auth.apikey.missing", error_message: "" },
    ],
    [
      "a code of another status",
      401,
      { status: "error", error_code: "auth.loginid.notfound", error_message: "" },
    ],
    [
      "a code the endpoint never answers",
      401,
      { status: "error", error_code: "auth.otp.invalid", error_message: "" },
    ],
  ])("finds an answer with %s", (_, status, body) => {
    const problems = document.problemsOf({
      operation: "login",
      method: "POST",
      status,
      headers: new Headers(),
      body,
    });
    expect(problems).toHaveLength(1);
  });

  it("finds a rate-limit answer without Retry-After", () => {
    const body = { status: "error", error_code: "request.ratelimit.exceeded", error_message: "" };
    const problems = document.problemsOf({
      operation: "login",
      method: "POST",
      status: 429,
      headers: new Headers(),
      body,
    });
    expect(problems).toEqual([expect.stringContaining("no Retry-After header")]);
  });
});
