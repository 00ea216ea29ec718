import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { errorCodes } from "@auth/errors";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompany, operatorOf, type TestCompany } from "./support/fixtures.js";

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

interface Answer {
  status: number;
  body: string;
}

/** Sends one request as it is, headers included, and reads the whole answer. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method, path, headers, timeout: 10_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Writes raw bytes (HTTP node's client would refuse to write) and reads the answer until the socket closes. */
function sendRaw(port: number, raw: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.end(raw);
  });
}

/** Every answer is a 4xx (or a success) with the envelope and a listed error code. */
function expectEnvelope(answer: Answer, what: string): void {
  expect(answer.status, what).toBeGreaterThanOrEqual(200);
  expect(answer.status, `${what}: ${answer.body}`).toBeLessThan(500);
  const body = JSON.parse(answer.body) as { status: string; error_code?: string };
  if (answer.status >= 400) {
    expect(body.status, what).toBe("error");
    expect(Object.keys(errorCodes), what).toContain(body.error_code);
  } else {
    expect(body.status, what).toBe("success");
  }
}

function residentMib(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The parts of a malformed request, for a company whose code and API key the fuzzer may use. */
function arbitraries(company: TestCompany) {
  const jsonValue = fc.jsonValue({ maxDepth: 4 });
  const bodyArbitrary = fc.oneof(
    // Objects with the spec's field names holding values of any type, and extra fields.
    fc
      .record(
        {
          login_id: jsonValue,
          password: jsonValue,
          otp: jsonValue,
          backup_code: jsonValue,
          new_password: jsonValue,
          accept_disclaimers: jsonValue,
          captcha_response: jsonValue,
          provider_id: jsonValue,
          code: jsonValue,
          redirect_uri: jsonValue,
          method: jsonValue,
          control_answer: jsonValue,
          token: jsonValue,
        },
        { requiredKeys: [] },
      )
      .chain((known) => fc.dictionary(fc.string(), jsonValue).map((extra) => ({ ...extra, ...known })))
      .map((value) => Buffer.from(JSON.stringify(value))),
    jsonValue.map((value) => Buffer.from(JSON.stringify(value) ?? "")),
    fc.string().map((text) => Buffer.from(text)),
    fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)),
    fc
      .integer({ min: 1, max: 12_000 })
      .map((depth) => Buffer.from(`${"[".repeat(depth)}${"]".repeat(depth)}`)),
    fc
      .integer({ min: 1, max: 5_000 })
      .map((depth) => Buffer.from(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`)),
    fc.constant(Buffer.alloc(20_000, "a")),
    fc.constant(Buffer.from(JSON.stringify({ login_id: "x".repeat(17_000) }))),
  );
  const pathArbitrary = fc.oneof(
    fc.constantFrom(...operations).map((operation) => `/${company.code}/v2/auth/${operation}`),
    fc.constantFrom(...operations).map((operation) => `/${company.code.toUpperCase()}/v2/auth/${operation}`),
    fc.constantFrom(
      "/",
      "//",
      "/..%2f..%2fetc%2fpasswd",
      `/${company.code}/v2/auth/../auth/login`,
      `/${company.code}/v2/auth/login%00`,
      `/${company.code}/v2/auth/login/`,
      `/${company.code}/v2/auth//login`,
      `/${company.code}/v3/auth/login`,
      "/%E0%A4%A/v2/auth/login",
      `/${company.code}/v2/auth/login?login_id=a&login_id=b`,
      `/${"a".repeat(3_000)}/v2/auth/login`,
    ),
    fc.webPath(),
  );
  const headersArbitrary = fc.record(
    {
      "x-api-key": fc.oneof(fc.constant(company.apiKey), fc.string({ maxLength: 300 }), fc.constant("")),
      authorization: fc.oneof(
        fc.string({ maxLength: 200 }).map((token) => `Bearer ${token}`),
        fc.string({ maxLength: 100 }),
        fc.base64String({ minLength: 64, maxLength: 64 }).map((token) => `Bearer ${token}`),
      ),
      "content-type": fc.constantFrom(
        "application/json",
        "application/json; charset=latin1",
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "application/json; charset=utf-16",
      ),
      "content-encoding": fc.constantFrom("identity", "gzip", "br", "bogus"),
    },
    { requiredKeys: [] },
  );
  return { bodyArbitrary, pathArbitrary, headersArbitrary };
}

describe("bad input, thousands of times", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let company: TestCompany;
  let port: number;

  beforeAll(async () => {
    own = await startOwnSuite({});
    suite = own.suite;
    port = Number(new URL(suite.gatewayUrl).port);
    company = await createCompany({}, operatorOf(suite));
  });
  afterAll(async () => {
    await own?.stop();
  });

  it("answers every malformed request with a 4xx envelope and a listed code, and no process exits", async () => {
    const { bodyArbitrary, pathArbitrary, headersArbitrary } = arbitraries(company);
    const warmed = residentMib(suite.children.gateway.pid);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS"),
        pathArbitrary,
        // The API key of the company is valid, a fixture value the arbitrary cannot know in advance.
        headersArbitrary.map((headers) => ({
          ...headers,
          "x-api-key": headers["x-api-key"] || company.apiKey,
        })),
        bodyArbitrary,
        async (method, path, headers, body) => {
          const answer = await send(port, method, path, headers, body);
          expectEnvelope(answer, `${method} ${path.slice(0, 80)}`);
        },
      ),
      { numRuns: 2_000 },
    );
    for (const [name, child] of Object.entries(suite.children))
      expect(child.running, `${name} still runs`).toBe(true);
    // Two thousand requests later, the gateway holds no more than a little more memory.
    expect(residentMib(suite.children.gateway.pid) - warmed).toBeLessThan(40);
  }, 300_000);

  it.each([
    [
      "a header with a control character",
      `POST /x/v2/auth/login HTTP/1.1\r\nHost: a\r\nX-Api-Key: a\u0001b\r\n\r\n`,
      400,
    ],
    [
      "headers over 16 KiB",
      `POST /x/v2/auth/login HTTP/1.1\r\nHost: a\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
    ],
    ["a malformed request line", "POST /x/v2/auth/login HTTP/9.9 extra\r\n\r\n", 400],
    [
      "a broken chunked body",
      "POST /x/v2/auth/login HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      400,
    ],
    ["CONNECT", "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: a\r\n\r\n", 405],
  ])("answers %s with the envelope", async (_, raw, status) => {
    const answer = await sendRaw(port, raw);
    expect(answer.status).toBe(status);
    expectEnvelope(answer, raw.slice(0, 40));
  });
});
