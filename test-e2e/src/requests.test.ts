import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectError } from "./support/api.js";
import { createCompany, createUser, type TestCompany } from "./support/fixtures.js";
import { passwordStep, startLogin } from "./support/flows.js";

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
    expect(await response.json()).toEqual({
      status: "error",
      error_code: "request.validation.failed",
      error_message: expect.any(String),
    });
  });

  it("answers request.validation.failed for invalid UTF-8", async () => {
    const response = await send(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(await response.json()).toEqual({
      status: "error",
      error_code: "request.validation.failed",
      error_message: expect.any(String),
    });
  });

  it("answers request.validation.failed for a body over 16 KiB", async () => {
    const response = await send(JSON.stringify({ login_id: "x".repeat(17 * 1024) }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      status: "error",
      error_code: "request.validation.failed",
      error_message: expect.any(String),
    });
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

describe("control characters in a body", () => {
  const captcha = "dev-captcha-pass";
  let company: TestCompany;
  /** A token in each state whose endpoint reads a text field: a refused body leaves it as it was. */
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    company = await createCompany();
    const [withPassword, withoutPassword, mustChange, withQuestion] = await Promise.all([
      createUser(company),
      createUser(company, { password: null }),
      createUser(company, { passwordChangeRequired: true }),
      createUser(company, { controlQuestion: "Name of your first pet?", controlAnswer: "Rex" }),
    ]);
    const recover = async (loginId: string, method: string) => {
      const response = await call(company.code, "recovery/recover", {
        apiKey: company.apiKey,
        body: { login_id: loginId, captcha_response: captcha, method },
      });
      return String(response.body.session_token);
    };
    tokens.checkpassword = await startLogin(company, withPassword.loginName);
    tokens.checkotp = await startLogin(company, withoutPassword.loginName);
    tokens.setpassword = String((await passwordStep(company, mustChange)).body.session_token);
    tokens["recovery/checkquestion"] = await recover(withQuestion.loginName, "QUESTION");
    tokens["recovery/checkotp"] = await recover(withPassword.loginName, "PHONE");
  });

  /** Each endpoint with a body whose one text field holds `text`, otherwise valid. */
  const bodies: [string, string, (text: string) => Record<string, unknown>][] = [
    ["login", "login_id", (text) => ({ login_id: `ann${text}@example.com` })],
    ["checkcredentials", "login_id", (text) => ({ login_id: `ann${text}`, password: "password-1" })],
    ["checkcredentials", "password", (text) => ({ login_id: "ann", password: `pass${text}word-1` })],
    [
      "checkcredentials",
      "captcha_response",
      (text) => ({ login_id: "ann", password: "x", captcha_response: text }),
    ],
    ["checkpassword", "password", (text) => ({ password: `${text}password-1` })],
    [
      "checkpassword",
      "accept_disclaimers",
      (text) => ({ password: "x", accept_disclaimers: ["tos", `p${text}`] }),
    ],
    ["checkotp", "otp", (text) => ({ otp: `123${text}456` })],
    ["checkotp", "backup_code", (text) => ({ backup_code: `AAAA-${text}` })],
    ["setpassword", "new_password", (text) => ({ new_password: `new-password-1${text}` })],
    [
      "oauth",
      "code",
      (text) => ({ provider_id: 1, code: `c${text}`, redirect_uri: "https://app.example/cb" }),
    ],
    [
      "oauth",
      "redirect_uri",
      (text) => ({ provider_id: 1, code: "c", redirect_uri: `https://app.example/${text}` }),
    ],
    ["recovery/recover", "login_id", (text) => ({ login_id: `ann${text}`, captcha_response: captcha })],
    ["recovery/checkotp", "otp", (text) => ({ otp: `${text}123456` })],
    ["recovery/checkquestion", "control_answer", (text) => ({ control_answer: `Rex${text}` })],
    ["recovery/checklink", "token", (text) => ({ token: `${"x".repeat(42)}${text}` })],
  ];
  const characters: [string, string][] = [
    ["NUL", "\u0000"],
    ["U+0001", "\u0001"],
    ["DEL", "\u007f"],
  ];

  it.each(
    bodies.flatMap(([operation, field, body]) =>
      characters.map(([name, text]) => [operation, field, name, body(text)] as const),
    ),
  )(
    "%s answers a %s with %s in it with request.validation.failed and 400",
    async (operation, _field, _name, body) => {
      expectError(
        await call(company.code, operation, { apiKey: company.apiKey, token: tokens[operation], body }),
        400,
        "request.validation.failed",
      );
    },
  );

  it("leaves the session of a refused body where it was", async () => {
    const response = await call(company.code, "checkpassword", {
      apiKey: company.apiKey,
      token: tokens.checkpassword,
      body: { password: "wrong" },
    });
    expectError(response, 401, "auth.password.invalid", ["captcha_required"]);
  });
});

describe("responses", () => {
  it("answers an unknown path with request.route.notfound and 404", async () => {
    const response = await fetch(`${inject("gatewayUrl")}/acme/v2/auth/nothing`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: "error",
      error_code: "request.route.notfound",
      error_message: expect.any(String),
    });
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
