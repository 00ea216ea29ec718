import { randomBytes, randomUUID } from "node:crypto";
import { deleteKeys } from "@auth/kv/testing";
import type { RunningSuite } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, call, expectError } from "./support/api.js";
import { createCompany, createUser, operatorOf, type TestCompany } from "./support/fixtures.js";

/** The gateway trusts X-Forwarded-For from loopback (TRUST_PROXY), so a test can be many clients. */
const from = (address: string) => ({ "x-forwarded-for": address });

describe("rate limit per client address", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({ rateLimitPerAddressPerMinute: 3 });
  });
  const login = (loginId: string, address: string, target = company) =>
    call(target.code, "login", {
      apiKey: target.apiKey,
      body: { login_id: loginId },
      headers: from(address),
    });

  it("answers request.ratelimit.exceeded, 429 and Retry-After once an address made the company's limit of requests in a minute", async () => {
    for (let i = 0; i < 3; i += 1) expect((await login(`someone-${i}`, "198.51.100.1")).status).toBe(404);
    const refused = await login("someone-else", "198.51.100.1");
    expectError(refused, 429, "request.ratelimit.exceeded");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("counts every secret-taking endpoint together, before the body is read", async () => {
    const address = "198.51.100.2";
    await login("a", address);
    await call(company.code, "checkcredentials", {
      apiKey: company.apiKey,
      body: { login_id: "b", password: "x" },
      headers: from(address),
    });
    await call(company.code, "recovery/checklink", {
      apiKey: company.apiKey,
      body: { token: "x".repeat(43) },
      headers: from(address),
    });
    expectError(
      await call(company.code, "recovery/recover", {
        apiKey: company.apiKey,
        body: {},
        headers: from(address),
      }),
      429,
      "request.ratelimit.exceeded",
    );
  });

  it("counts each address on its own, and each company on its own", async () => {
    for (let i = 0; i < 4; i += 1) await login(`x-${i}`, "198.51.100.3");
    expect((await login("x", "198.51.100.4")).status).toBe(404);
    const other = await createCompany({ rateLimitPerAddressPerMinute: 3 });
    expect((await login("x", "198.51.100.3", other)).status).toBe(404);
  });

  it("counts oauth, each call of which has identity ask a provider", async () => {
    const address = "198.51.100.7";
    const oauth = () =>
      call(company.code, "oauth", {
        apiKey: company.apiKey,
        body: { provider_id: 1, code: "code", redirect_uri: "https://app.example/callback" },
        headers: from(address),
      });
    // The company has no provider in slot 1: identity answers so, and the request counts.
    for (let i = 0; i < 3; i += 1) expect((await oauth()).body.error_code).toBe("request.validation.failed");
    expectError(await oauth(), 429, "request.ratelimit.exceeded");
  });

  it("counts the endpoints that take no secret, such as logout, before the token, on a count of their own", async () => {
    const address = "198.51.100.5";
    const logout = () =>
      call(company.code, "logout", { apiKey: company.apiKey, token: "x".repeat(64), headers: from(address) });
    for (let i = 0; i < 3; i += 1) expectError(await logout(), 401, "auth.token.invalid");
    expectError(await logout(), 429, "request.ratelimit.exceeded");
    // The secret-taking endpoints' count is the address's own still.
    expect((await login("a", address)).status).toBe(404);
  });

  it("does not count requests with a wrong API key", async () => {
    for (let i = 0; i < 5; i += 1) {
      await call(company.code, "login", {
        apiKey: "wrong",
        body: { login_id: "a" },
        headers: from("198.51.100.6"),
      });
    }
    expect((await login("a", "198.51.100.6")).status).toBe(404);
  });
});

describe("rate limit per IPv6 client", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({ rateLimitPerAddressPerMinute: 5 });
  });
  const login = (address: string) =>
    call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: "nobody" },
      headers: from(address),
    });

  it("counts the addresses of one /64 as one client: of 40 addresses in it, 5 get through", async () => {
    const statuses = [];
    for (let i = 0; i < 40; i += 1)
      statuses.push((await login(`2001:db8:40:1:${i.toString(16)}::${i + 1}`)).status);
    expect(statuses).toEqual([...new Array(5).fill(404), ...new Array(35).fill(429)]);
  });

  it("counts each /64 on its own", async () => {
    for (let i = 0; i < 6; i += 1) await login(`2001:db8:40:2::${i + 1}`);
    expect((await login("2001:db8:40:3::1")).status).toBe(404);
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address", async () => {
    for (let i = 0; i < 5; i += 1) await login(i % 2 === 0 ? "192.0.2.40" : "::ffff:192.0.2.40");
    expectError(await login("::ffff:192.0.2.40"), 429, "request.ratelimit.exceeded");
    expectError(await login("192.0.2.40"), 429, "request.ratelimit.exceeded");
  });
});

describe("rate limit per login ID", () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createCompany({ rateLimitPerLoginIdPerMinute: 3 });
  });

  it("answers request.ratelimit.exceeded for a login ID that made the limit, from whatever address, and lets other login IDs in", async () => {
    const user = await createUser(company);
    const other = await createUser(company);
    const checkcredentials = (loginId: string, address: string) =>
      call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: loginId, password: "wrong" },
        headers: from(address),
      });
    for (let i = 0; i < 3; i += 1) {
      expect((await checkcredentials(user.loginName, `203.0.113.${i}`)).body.error_code).toBe(
        "auth.credentials.invalid",
      );
    }
    expectError(await checkcredentials(user.loginName, "203.0.113.9"), 429, "request.ratelimit.exceeded");
    expectError(
      await checkcredentials(` ${user.loginName.toUpperCase()} `, "203.0.113.10"),
      429,
      "request.ratelimit.exceeded",
    );
    expect((await checkcredentials(other.loginName, "203.0.113.9")).body.error_code).toBe(
      "auth.credentials.invalid",
    );
  });

  it("counts a phone number in every format it is written in as one login ID", async () => {
    const user = await createUser(company);
    const login = (loginId: string) =>
      call(company.code, "login", { apiKey: company.apiKey, body: { login_id: loginId } });
    const national = user.phone.slice(2);
    for (const phone of [user.phone, national, `(${national.slice(0, 3)}) ${national.slice(3)}`]) {
      expect((await login(phone)).body.session_state, phone).toBe("checkpassword");
    }
    expectError(await login(`+1 ${national}`), 429, "request.ratelimit.exceeded");
  });

  it("counts the steps of a session against the login ID it started with", async () => {
    const user = await createUser(company);
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    const token = String(login.body.session_token);
    const checkpassword = (address: string) =>
      call(company.code, "checkpassword", {
        apiKey: company.apiKey,
        token,
        body: { password: "wrong" },
        headers: from(address),
      });
    expect((await checkpassword("203.0.113.20")).body.error_code).toBe("auth.password.invalid");
    expect((await checkpassword("203.0.113.21")).body.error_code).toBe("auth.password.invalid");
    expectError(await checkpassword("203.0.113.22"), 429, "request.ratelimit.exceeded");
  });
});

/**
 * A gateway on Redis whose TRUST_PROXY lists a proxy that is not its peer (the tests reach it from
 * loopback), with a key prefix of this file's own: what a client that makes up tokens and forwarded
 * addresses costs the gateway (docs/security.md, "Abuse of the service").
 */
describe.runIf(process.env.TEST_REDIS_URL)("a client that makes up tokens and forwarded addresses", () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? "";
  const redisKeyPrefix = `e2e-rate-limits-${randomBytes(4).toString("hex")}:`;
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  let suite: RunningSuite;
  let company: TestCompany;
  let redis: Redis;

  beforeAll(async () => {
    own = await startOwnSuite({ gateway: { TRUST_PROXY: "192.0.2.1" } }, { redisUrl, redisKeyPrefix });
    suite = own.suite;
    company = await createCompany({ rateLimitPerAddressPerMinute: 5 }, operatorOf(suite));
    redis = new Redis(redisUrl);
  }, testBudgets.suiteStartMs);
  afterAll(async () => {
    redis?.disconnect();
    await own?.stop();
    await deleteKeys(redisUrl, redisKeyPrefix);
  });

  /**
   * The gateway's keys in Redis, without the prefix: `rate:...` counts and `idempotency:...` answers.
   * Not its heartbeat (`gateways`), which its timer writes whatever clients send (docs/operations.md,
   * "Rate limits while Redis is away") and a loaded machine may let lapse and write again mid-test.
   */
  async function gatewayKeys(): Promise<string[]> {
    const prefix = `${redisKeyPrefix}auth:gateway:`;
    const keys: string[] = [];
    const stream = redis.scanStream({ match: `${prefix}*`, count: 500 });
    for await (const batch of stream as AsyncIterable<string[]>) keys.push(...batch);
    return keys
      .map((key) => key.slice(prefix.length))
      .filter((key) => key !== "gateways")
      .sort();
  }

  const tally = (answers: ApiResponse[]) => {
    const counts = new Map<string, number>();
    for (const answer of answers) {
      const kind = `${answer.status} ${answer.body.error_code ?? "success"}`;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    return [...counts];
  };

  it("sends 300 logouts with made-up tokens and fresh Idempotency-Keys: 5 × auth.token.invalid, then 429, and no key in Redis but the address's count", async () => {
    const before = await gatewayKeys();
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 300; i += 1) {
      answers.push(
        await call(company.code, "logout", {
          apiKey: company.apiKey,
          gatewayUrl: suite.gatewayUrl,
          token: randomBytes(32).toString("base64url"),
          headers: { "Idempotency-Key": randomUUID() },
        }),
      );
    }
    expect(tally(answers)).toEqual([
      ["401 auth.token.invalid", 5],
      ["429 request.ratelimit.exceeded", 295],
    ]);
    const added = (await gatewayKeys()).filter((key) => !before.includes(key));
    expect(added).toEqual([`rate:address-others:${company.id}:127.0.0.1`]);
  });

  it("ignores X-Forwarded-For from a peer TRUST_PROXY does not list: 30 requests with a new forwarded address each are one client, refused after the limit", async () => {
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 30; i += 1) {
      answers.push(
        await call(company.code, "login", {
          apiKey: company.apiKey,
          gatewayUrl: suite.gatewayUrl,
          body: { login_id: `nobody-${i}` },
          headers: { "x-forwarded-for": `203.0.113.${i + 1}` },
        }),
      );
    }
    expect(tally(answers)).toEqual([
      ["404 auth.loginid.notfound", 5],
      ["429 request.ratelimit.exceeded", 25],
    ]);
  });
});
