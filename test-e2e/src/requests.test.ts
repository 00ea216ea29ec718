import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectError } from "./support/api.js";
import { createCompany, createUser, type TestCompany } from "./support/fixtures.js";

const operations = [
  "login",
  "checkpassword",
  "checkotp",
  "renewotp",
  "setpassword",
  "checkcredentials",
  "oauth",
  "acceptdisclaimers",
  "logout",
  "recovery/recover",
  "recovery/checkotp",
  "recovery/renewotp",
  "recovery/checkquestion",
  "recovery/checklink",
];

describe("every endpoint", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });

  it.each(operations)("%s exists and checks the API key first", async (operation) => {
    expectError(await call(company.code, operation, { body: "not json" }), 401, "auth.apikey.missing");
  });

  it.each(operations)("%s answers only POST, with the envelope", async (operation) => {
    const response = await call(company.code, operation, { apiKey: company.apiKey, method: "GET" });
    expectError(response, 405, "request.method.notallowed");
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("API key (X-API-Key)", () => {
  let company: TestCompany;
  let other: TestCompany;
  beforeAll(async () => {
    [company, other] = await Promise.all([createCompany(), createCompany()]);
  });
  const login = (code: string, apiKey?: string) => call(code, "login", { apiKey, body: { login_id: "x" } });

  it("answers auth.apikey.missing with 401 without the header, or with an empty one", async () => {
    expectError(await login(company.code), 401, "auth.apikey.missing");
    expectError(await login(company.code, ""), 401, "auth.apikey.missing");
  });

  it("answers auth.apikey.invalid with 401 for an unknown key", async () => {
    expectError(await login(company.code, "x".repeat(43)), 401, "auth.apikey.invalid");
  });

  it("answers auth.apikey.invalid for the key of another company", async () => {
    expectError(await login(company.code, other.apiKey), 401, "auth.apikey.invalid");
  });

  it("answers auth.apikey.invalid for an unknown company, so companies cannot be listed", async () => {
    expectError(await login("no-such-company", company.apiKey), 401, "auth.apikey.invalid");
    expectError(await login("UPPER%20case", company.apiKey), 401, "auth.apikey.invalid");
  });
});

describe("Authorization header", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });
  const checkpassword = (headers: Record<string, string>) =>
    call(company.code, "checkpassword", { apiKey: company.apiKey, headers, body: { password: "x" } });

  it("answers auth.header.missing with 401 without it", async () => {
    expectError(await checkpassword({}), 401, "auth.header.missing");
  });

  it.each(["Token abc", "Bearer", "Bearer ", "Bearer a b", "bearer"])(
    "answers auth.header.invalid for %j",
    async (value) => {
      expectError(await checkpassword({ authorization: value }), 401, "auth.header.invalid");
    },
  );

  it("checks the header before the body", async () => {
    const response = await call(company.code, "checkpassword", { apiKey: company.apiKey, body: "not json" });
    expectError(response, 401, "auth.header.missing");
  });
});

describe("request body", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany();
  });
  const send = (body: string | Uint8Array, contentType = "application/json") =>
    fetch(`${inject("gatewayUrl")}/${company.code}/v2/auth/login`, {
      method: "POST",
      headers: { "x-api-key": company.apiKey, "content-type": contentType },
      body,
    });

  it.each([
    ["not JSON", "{login_id:"],
    ["a JSON array", '["x"]'],
    ["a JSON string", '"x"'],
    ["JSON null", "null"],
  ])("answers request.validation.failed with 400 for %s", async (_, body) => {
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: "error", error_code: "request.validation.failed" });
  });

  it("answers request.validation.failed for invalid UTF-8", async () => {
    const response = await send(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(await response.json()).toEqual({ status: "error", error_code: "request.validation.failed" });
  });

  it("answers request.validation.failed for a body over 16 KiB", async () => {
    const response = await send(JSON.stringify({ login_id: "x".repeat(17 * 1024) }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: "error", error_code: "request.validation.failed" });
  });

  it("reads JSON whatever the content type says", async () => {
    const user = await createUser(company);
    const response = await send(JSON.stringify({ login_id: user.loginName }), "text/plain");
    expect(((await response.json()) as Record<string, unknown>).session_state).toBe("checkpassword");
  });

  it("ignores unknown fields", async () => {
    const user = await createUser(company);
    const response = await send(JSON.stringify({ login_id: user.loginName, extra: { deep: [1, 2] } }));
    expect(((await response.json()) as Record<string, unknown>).session_state).toBe("checkpassword");
  });
});

describe("responses", () => {
  it("answers an unknown path with request.route.notfound and 404", async () => {
    const response = await fetch(`${inject("gatewayUrl")}/acme/v2/auth/nothing`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ status: "error", error_code: "request.route.notfound" });
  });

  it("answers a malformed path with the envelope", async () => {
    const response = await fetch(`${inject("gatewayUrl")}/%E0%A4%A/v2/auth/login`, { method: "POST" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(((await response.json()) as Record<string, unknown>).status).toBe("error");
  });

  it("are never cached, never sniffed, and do not name the framework", async () => {
    const response = await call("acme", "login", {});
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
