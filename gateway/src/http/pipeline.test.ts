import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthError } from "@auth/errors";
import { connectRedis } from "@auth/kv";
import { deleteKeys } from "@auth/kv/testing";
import type { VerifyCredentialsResponse } from "@auth/proto/identity";
import { CheckOutcome, type Session, SessionState, TokenStatus } from "@auth/proto/session";
import { createLogger, parseConfig } from "@auth/runtime";
import { type TcpGate, tcpGate } from "@auth/testing";
import type { Cluster, Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.js";
import type { Backends } from "../backends.js";
import { CompaniesWithDisclaimers } from "../companies-with-disclaimers.js";
import { configSchema } from "../config.js";
import { tenantCompany } from "../endpoint/tenant-company.testing.js";
import type { BackendHealth } from "../readiness.js";
import { CompanyCache } from "./company-cache.js";
import { GatewayReplicas } from "./gateway-replicas.js";
import { IdempotentAnswers } from "./idempotency.js";
import { LoginIdTurns } from "./login-id-turns.js";
import { RateLimits } from "./rate-limits.js";
import { RedisAvailability } from "./redis-availability.js";

/**
 * The order of an endpoint's checks (docs/decisions.md, "Requests and responses" and
 * "Idempotency-Key"), on the gateway's app with services that answer as the tests say: every
 * request is counted per client address before its token is looked at, and an Idempotency-Key's
 * answer is kept only for a request whose token is valid.
 */

const apiKey = "key-of-acme";
const company = tenantCompany({ rateLimitPerAddressPerMinute: 5 }, "acme");

/**
 * The services, as far as these tests reach them: a session service that knows the tokens it is
 * given, and identity's other methods as a test gives them.
 */
function servicesKnowing(
  live: Map<string, Session>,
  revokedBy: Map<string, string>,
  identityMethods: Partial<Backends["identity"]> = {},
): Backends {
  const identity = {
    authenticateApiKey: async ({ apiKey: key }: { apiKey: string }) => {
      if (key !== apiKey) throw new AuthError("auth.apikey.invalid");
      return { company };
    },
    ...identityMethods,
  };
  const session = {
    introspectSession: async ({ sessionToken }: { sessionToken: string }) => {
      const known = live.get(sessionToken);
      return known ? { status: TokenStatus.ACTIVE, session: known } : { status: TokenStatus.INVALID };
    },
    revokeSession: async ({ sessionToken, retryKey }: { sessionToken: string; retryKey?: string }) => {
      if (live.delete(sessionToken)) {
        if (retryKey) revokedBy.set(sessionToken, retryKey);
        return { revoked: true };
      }
      return { revoked: retryKey !== undefined && revokedBy.get(sessionToken) === retryKey };
    },
  };
  // A link of an e-mail no one sent: the recovery service does not know it.
  const recovery = {
    redeemRecoveryLink: async () => {
      throw new AuthError("auth.token.invalid");
    },
  };
  return { identity, session, recovery, otp: {}, disclaimer: {}, audit: {} } as unknown as Backends;
}

interface Gateway {
  url: string;
  live: Map<string, Session>;
  revokedBy: Map<string, string>;
  close(): Promise<void>;
}

const health = { notServing: async () => [], close: () => {} } as unknown as BackendHealth;

/** The gateway's app on a free loopback port, counting and keeping answers in Redis when given one. */
async function startGateway(
  options: {
    trustProxy?: string;
    redis?: Redis | Cluster;
    sessionsOf?: Gateway;
    /** Where answers are kept, when not in `redis`. */
    answers?: IdempotentAnswers;
    identity?: Partial<Backends["identity"]>;
    requestDeadlineMs?: number;
  } = {},
) {
  const live = options.sessionsOf?.live ?? new Map<string, Session>();
  const revokedBy = options.sessionsOf?.revokedBy ?? new Map<string, string>();
  const { redis } = options;
  const availability = redis && new RedisAvailability(redis);
  const app = createApp({
    backends: servicesKnowing(live, revokedBy, options.identity),
    // Never read: these requests reach no disclaimers.
    companiesWithDisclaimers: new CompaniesWithDisclaimers(
      { listCompaniesWithDisclaimers: async () => ({ companyIds: [] }) },
      0,
      createLogger("pipeline-test", "silent"),
    ),
    requestDeadlineMs: options.requestDeadlineMs ?? 10_000,
    rateLimits: new RateLimits(
      { perAddressPerMinute: 120, perLoginIdPerMinute: 30 },
      redis && availability && { redis, availability, replicas: new GatewayReplicas(1) },
    ),
    turns: new LoginIdTurns(2),
    companies: new CompanyCache(0),
    answers: options.answers ?? IdempotentAnswers.on(redis),
    logger: createLogger("pipeline-test", "silent"),
    health,
    // As main.ts has it: TRUST_PROXY read by the configuration's schema.
    trustProxy: parseConfig(configSchema, {
      GRPC_PLAINTEXT_DEV: "true",
      ...(options.trustProxy === undefined ? {} : { TRUST_PROXY: options.trustProxy }),
    }).TRUST_PROXY,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    live,
    revokedBy,
    close: async () => {
      availability?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  } satisfies Gateway;
}

/** A live session of the company, in state authorized. */
function liveSession(gateway: Gateway): string {
  const token = randomUUID().replaceAll("-", "");
  gateway.live.set(token, {
    sessionId: randomUUID(),
    companyId: company.id,
    userId: randomUUID(),
    loginId: "alice",
    state: SessionState.AUTHORIZED,
  } as Session);
  return token;
}

async function post(
  gateway: Gateway,
  operation: string,
  options: { token?: string; key?: string; body?: unknown; forwardedFor?: string } = {},
) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": apiKey };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.key !== undefined) headers["idempotency-key"] = options.key;
  if (options.forwardedFor !== undefined) headers["x-forwarded-for"] = options.forwardedFor;
  const response = await fetch(`${gateway.url}/acme/v2/auth/${operation}`, {
    method: "POST",
    headers,
    body: JSON.stringify(options.body ?? {}),
  });
  const body = (await response.json()) as Record<string, unknown>;
  return {
    status: response.status,
    code: body.error_code as string | undefined,
    replayed: response.headers.get("idempotent-replayed") === "true",
    retryAfter: response.headers.get("retry-after"),
  };
}

/** How many answers of each kind, in the order they first came: "401 auth.token.invalid" × 5, ... */
function tally(answers: Array<{ status: number; code?: string }>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const { status, code } of answers) {
    const kind = `${status} ${code ?? "success"}`;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts];
}

const madeUpToken = () => randomUUID().replaceAll("-", "").repeat(2);

describe.runIf(process.env.TEST_REDIS_URL)(
  "a gateway on Redis, with a limit of 5 requests a minute per address",
  () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? "";
    const keyPrefix = `test:gateway-pipeline:${process.pid}:${Date.now()}:`;
    let redis: Redis | Cluster;
    let gateway: Gateway;

    /** The keys the gateway holds in Redis (its own key prefix). */
    async function keysInRedis(): Promise<string[]> {
      const keys: string[] = [];
      let cursor = "0";
      do {
        const [next, batch] = await redis.scan(cursor, "MATCH", `${keyPrefix}*`, "COUNT", 500);
        cursor = next;
        keys.push(...batch.map((key) => key.slice(keyPrefix.length)));
      } while (cursor !== "0");
      return keys.sort();
    }

    beforeAll(async () => {
      redis = await connectRedis({ kind: "standalone", url: redisUrl }, { keyPrefix });
      gateway = await startGateway({ redis });
    });
    afterAll(async () => {
      await gateway?.close();
      redis?.disconnect();
      await deleteKeys(redisUrl, keyPrefix);
    });

    it("answers 300 logouts with made-up tokens and fresh Idempotency-Keys with 5 × auth.token.invalid, then 429, and keeps no answer of them", async () => {
      expect(await keysInRedis()).toEqual([]);
      const answers = [];
      for (let i = 0; i < 300; i += 1) {
        answers.push(await post(gateway, "logout", { token: madeUpToken(), key: randomUUID() }));
      }
      expect(tally(answers)).toEqual([
        ["401 auth.token.invalid", 5],
        ["429 request.ratelimit.exceeded", 295],
      ]);
      expect(Number(answers[5]?.retryAfter)).toBeGreaterThan(0);
      // The only key in Redis is the address's count: no answer, no "running" mark.
      expect(await keysInRedis()).toEqual(["rate:address-others:acme:127.0.0.1"]);
    });

    it("keeps the answer of a logout whose token is valid", async () => {
      const before = await keysInRedis();
      const token = liveSession(gateway);
      const key = randomUUID();
      const from = "192.0.2.50";
      expect((await post(gateway, "logout", { token, key, forwardedFor: from })).status).toBe(200);
      const added = (await keysInRedis()).filter((name) => !before.includes(name));
      expect(added.map((name) => name.replace(/:[^:]+$/, ""))).toEqual([
        "idempotency",
        "rate:address-others:acme",
      ]);
      expect(await post(gateway, "logout", { token, key, forwardedFor: from })).toMatchObject({
        status: 200,
        replayed: true,
      });
    });

    describe("a login, whose login ID is in its body", () => {
      let login: Gateway;
      let captchasAsked = 0;
      beforeAll(async () => {
        login = await startGateway({
          redis,
          trustProxy: "127.0.0.1/32",
          identity: {
            findUser: async () => {
              throw new AuthError("auth.loginid.notfound");
            },
            verifyCaptcha: async () => {
              captchasAsked += 1;
              return { valid: false };
            },
          },
        });
      });
      afterAll(async () => {
        await login?.close();
      });

      it("has its address and its login ID counted in one round trip to Redis", async () => {
        const from = "198.51.100.1";
        // The first use of the script on the connection may load it.
        await post(login, "login", { body: { login_id: "ann@acme.example" }, forwardedFor: from });
        const sent = vi.spyOn(redis, "sendCommand");
        try {
          expect(
            await post(login, "login", { body: { login_id: "ann@acme.example" }, forwardedFor: from }),
          ).toMatchObject({ status: 404, code: "auth.loginid.notfound" });
          expect(sent.mock.calls.map(([command]) => command.name)).toEqual(["evalsha"]);
        } finally {
          sent.mockRestore();
        }
      });

      it("is counted by its address alone when its body is refused, or too large to read", async () => {
        const before = await keysInRedis();
        const from = "198.51.100.2";
        // Three bodies without a login ID, then three over the 16 kB a body may have: the limit is 5.
        const answers = [];
        for (let i = 0; i < 3; i += 1)
          answers.push(await post(login, "login", { body: {}, forwardedFor: from }));
        for (let i = 0; i < 3; i += 1) {
          answers.push(
            await post(login, "login", { body: { login_id: "x".repeat(20_000) }, forwardedFor: from }),
          );
        }
        expect(tally(answers)).toEqual([
          ["400 request.validation.failed", 5],
          ["429 request.ratelimit.exceeded", 1],
        ]);
        expect((await keysInRedis()).filter((name) => !before.includes(name))).toEqual([
          `rate:address:acme:${from}`,
        ]);
      });

      it("but not a recovery, which asks the captcha before its login ID: its address is counted first, and a client over its limit costs no captcha check", async () => {
        const answers = [];
        for (let i = 0; i < 6; i += 1) {
          answers.push(
            await post(login, "recovery/recover", {
              body: { login_id: "ann@acme.example", captcha_response: "made up" },
              forwardedFor: "198.51.100.3",
            }),
          );
        }
        expect(tally(answers)).toEqual([
          ["403 auth.captcha.invalid", 5],
          ["429 request.ratelimit.exceeded", 1],
        ]);
        expect(captchasAsked).toBe(5);
      });
    });
  },
);

describe.runIf(process.env.TEST_REDIS_URL)("an Idempotency-Key's answer kept in a Redis that stalls", () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? "";
  const keyPrefix = `test:gateway-pipeline-stall:${process.pid}:${Date.now()}:`;
  let gate: TcpGate;
  let redis: Redis | Cluster;
  let gateway: Gateway;

  beforeAll(async () => {
    gate = await tcpGate({ host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) });
    await gate.open("through");
    // A short command timeout, so that a stall lasts several of them; the rate limits count in the
    // process here, so that the stall meets the store of answers alone.
    redis = await connectRedis(
      { kind: "standalone", url: `redis://127.0.0.1:${gate.port}` },
      { keyPrefix, commandTimeoutMs: 250 },
    );
    gateway = await startGateway({ answers: IdempotentAnswers.on(redis) });
  });
  afterAll(async () => {
    await gateway?.close();
    redis?.disconnect();
    await gate?.close();
    await deleteKeys(redisUrl, keyPrefix);
  });

  it("replays a logout's answer to its retry sent while Redis holds its replies back for 1.5 s (six command timeouts), though the token is gone", async () => {
    const token = liveSession(gateway);
    const key = randomUUID();
    expect(await post(gateway, "logout", { token, key })).toMatchObject({ status: 200, replayed: false });
    // Only the kept answer tells the retry what its first try did: the session service forgot it
    // (as it never knew a setpassword's last step).
    gateway.revokedBy.clear();
    gate.hold();
    setTimeout(() => gate.release(), 1_500);
    const started = performance.now();
    const retry = await post(gateway, "logout", { token, key });
    console.log(
      `a logout's retry through a Redis stall of 1500 ms: ${retry.status} in ${Math.round(performance.now() - started)} ms`,
    );
    expect(retry).toMatchObject({ status: 200, replayed: true });
  });
});

describe("the Idempotency-Key of a request whose token is valid", () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it("keeps its answer: a retry of a logout that ended its token gets it again, and no other request", async () => {
    const token = liveSession(gateway);
    const key = randomUUID();
    expect(await post(gateway, "logout", { token, key })).toMatchObject({ status: 200, replayed: false });
    expect(gateway.live.has(token)).toBe(false);
    expect(await post(gateway, "logout", { token, key })).toMatchObject({ status: 200, replayed: true });
    expect(await post(gateway, "logout", { token, key: randomUUID() })).toMatchObject({
      status: 401,
      code: "auth.token.invalid",
    });
  });

  it("a retry that finds no answer kept (another gateway's, lost) is told success by the session service, which ended the token for it; nothing is kept for it", async () => {
    const token = liveSession(gateway);
    const key = randomUUID();
    expect((await post(gateway, "logout", { token, key })).status).toBe(200);
    const other = await startGateway({ sessionsOf: gateway });
    try {
      for (let i = 0; i < 2; i += 1) {
        expect(await post(other, "logout", { token, key })).toMatchObject({ status: 200, replayed: false });
      }
      expect(await post(other, "logout", { token, key: randomUUID() })).toMatchObject({
        status: 401,
        code: "auth.token.invalid",
      });
    } finally {
      await other.close();
    }
  });
});

describe("TRUST_PROXY", () => {
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  /** 30 requests, each with a new forwarded address: the outcomes, by kind. */
  async function thirtyForwardedAddresses(): Promise<Array<[string, number]>> {
    const answers = [];
    for (let i = 0; i < 30; i += 1) {
      answers.push(
        await post(gateway as Gateway, "recovery/checklink", {
          body: { token: "x".repeat(43) },
          forwardedFor: `198.51.100.${i + 1}`,
        }),
      );
    }
    return tally(answers);
  }

  it("ignores X-Forwarded-For from a peer it does not list: 30 new forwarded addresses are one client, refused after the limit", async () => {
    gateway = await startGateway({ trustProxy: "192.0.2.1,10.0.0.0/8" });
    expect(await thirtyForwardedAddresses()).toEqual([
      ["401 auth.token.invalid", 5],
      ["429 request.ratelimit.exceeded", 25],
    ]);
  });

  it("honours X-Forwarded-For from a listed proxy: 30 forwarded addresses are 30 clients", async () => {
    gateway = await startGateway({ trustProxy: "192.0.2.1,127.0.0.1/32" });
    expect(await thirtyForwardedAddresses()).toEqual([["401 auth.token.invalid", 30]]);
  });
});

describe('the requests about one login ID (docs/operations.md, "A burst at one user")', () => {
  let gateway: Gateway | undefined;
  let checks: ReturnType<typeof heldChecks>;
  beforeEach(() => {
    checks = heldChecks();
  });
  afterEach(async () => {
    // Whatever a failed test left held is answered, so that the gateway can close.
    checks.answerAll();
    await gateway?.close();
    gateway = undefined;
  });

  /** Identity's VerifyCredentials held until released, and how many of each login ID it holds. */
  function heldChecks() {
    const held: Array<{ loginId: string; answer: () => void }> = [];
    const locked = {
      outcome: CheckOutcome.LOCKED_OUT,
      checkId: "",
      retryAfterSeconds: 60,
      captchaRequired: false,
      credentialGeneration: "",
    };
    return {
      verifyCredentials: ({ loginId }: { loginId: string }) =>
        new Promise<VerifyCredentialsResponse>((resolve) => {
          held.push({
            loginId,
            answer: () =>
              resolve({ normalizedLoginId: loginId, passwordChangeRequired: false, check: locked }),
          });
        }),
      of: (loginId: string) => held.filter((check) => check.loginId === loginId).length,
      answerOne: (loginId: string) => {
        const index = held.findIndex((check) => check.loginId === loginId);
        held.splice(index, 1)[0]?.answer();
      },
      answerAll: () => {
        for (const check of held.splice(0)) check.answer();
      },
    };
  }
  /** A wrong password for the login ID, from a client address of its own (the address limit is 5). */
  const guess = (loginId: string, from: number) =>
    post(gateway as Gateway, "checkcredentials", {
      body: { login_id: loginId, password: "wrong" },
      forwardedFor: `198.51.100.${from}`,
    });

  it("works on two of a login ID's requests at once, the others waiting their turn, while another login ID's go straight on", async () => {
    gateway = await startGateway({
      trustProxy: "127.0.0.1/32",
      identity: { verifyCredentials: checks.verifyCredentials },
    });
    const burst = Array.from({ length: 10 }, (_, index) => guess("alice", index + 1));
    await vi.waitFor(() => expect(checks.of("alice")).toBe(2));
    const other = guess("bob", 99);
    await vi.waitFor(() => expect(checks.of("bob")).toBe(1));
    checks.answerOne("bob");
    expect(await other).toMatchObject({ status: 403, code: "auth.restricted" });
    for (let answered = 0; answered < 10; answered += 1) {
      await vi.waitFor(() => expect(checks.of("alice")).toBe(Math.min(2, 10 - answered)));
      checks.answerOne("alice");
    }
    expect(tally(await Promise.all(burst))).toEqual([["403 auth.restricted", 10]]);
  });

  it("answers a request that waits half its deadline for its turn 429 request.ratelimit.exceeded, without asking identity", async () => {
    gateway = await startGateway({
      trustProxy: "127.0.0.1/32",
      identity: { verifyCredentials: checks.verifyCredentials },
      requestDeadlineMs: 500,
    });
    const working = [guess("alice", 1), guess("alice", 2)];
    await vi.waitFor(() => expect(checks.of("alice")).toBe(2));
    const sent = performance.now();
    expect(await guess("alice", 3)).toMatchObject({
      status: 429,
      code: "request.ratelimit.exceeded",
      retryAfter: "1",
    });
    expect(performance.now() - sent).toBeGreaterThanOrEqual(250);
    expect(checks.of("alice")).toBe(2);
    checks.answerOne("alice");
    checks.answerOne("alice");
    await Promise.all(working);
  });
});
