import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";
import { AuthError } from "@auth/errors";
import { connectRedis } from "@auth/kv";
import type { CompanyPolicy } from "@auth/proto/identity";
import type { Cluster, Redis } from "ioredis";
import { describe, expect, it, vi } from "vitest";
import { tenantCompany } from "../endpoint/tenant-company.testing.js";
import type { Operation } from "../endpoint/transitions.js";
import { endpoints } from "../routes.js";
import { GatewayReplicas } from "./gateway-replicas.js";
import { RateLimits } from "./rate-limits.js";
import { RedisAvailability } from "./redis-availability.js";

const fiveThenRefused = [...Array(5).fill("ok"), "request.ratelimit.exceeded"];

const defaults = { perAddressPerMinute: 3, perLoginIdPerMinute: 2 };

const company = (id: string, policy: Partial<CompanyPolicy> = {}) => tenantCompany(policy, id);
/** The rate limit the operation's endpoint declares. */
const limitOf = (operation: Operation) =>
  endpoints.find((endpoint) => endpoint.operation === operation)?.rateLimit;

/** The outcome of each attempt: "ok", or the error code and Retry-After. */
async function attempts(times: number, attempt: () => Promise<void>): Promise<string[]> {
  const outcomes = [];
  for (let i = 0; i < times; i += 1) {
    try {
      await attempt();
      outcomes.push("ok");
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
      outcomes.push(error.code);
    }
  }
  return outcomes;
}

describe("RateLimits", () => {
  it("refuses an address beyond the default limit with request.ratelimit.exceeded and a Retry-After", async () => {
    const limits = new RateLimits(defaults, undefined);
    expect(await attempts(4, () => limits.byAddress(company("a"), limitOf("login"), "10.0.0.1"))).toEqual([
      "ok",
      "ok",
      "ok",
      "request.ratelimit.exceeded",
    ]);
  });

  it("takes a company's own limits over the defaults", async () => {
    const limits = new RateLimits(defaults, undefined);
    const own = company("b", { rateLimitPerAddressPerMinute: 1, rateLimitPerLoginIdPerMinute: 4 });
    expect(await attempts(2, () => limits.byAddress(own, limitOf("checkpassword"), "10.0.0.1"))).toEqual([
      "ok",
      "request.ratelimit.exceeded",
    ]);
    expect(await attempts(5, () => limits.byLoginId(own, limitOf("checkotp"), "alice"))).toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "request.ratelimit.exceeded",
    ]);
  });

  it("counts a login ID whatever its case and surrounding spaces", async () => {
    const limits = new RateLimits(defaults, undefined);
    const acme = company("c");
    await limits.byLoginId(acme, limitOf("login"), "Alice");
    await limits.byLoginId(acme, limitOf("checkcredentials"), " alice ");
    await expect(limits.byLoginId(acme, limitOf("recovery/recover"), "ALICE")).rejects.toMatchObject({
      code: "request.ratelimit.exceeded",
    });
  });

  it("counts the endpoints that take no secret per address too, on a count of their own at the same limit", async () => {
    const limits = new RateLimits({ perAddressPerMinute: 2, perLoginIdPerMinute: 100 }, undefined);
    const acme = company("d");
    const others = ["logout", "setpassword", "acceptdisclaimers", "sessions", "sessions/end"] as const;
    for (const operation of others) expect(limitOf(operation), operation).toBeUndefined();
    const each = [...others];
    expect(
      await attempts(others.length, () =>
        limits.byAddress(acme, limitOf(each.shift() ?? "logout"), "10.0.0.1"),
      ),
    ).toEqual([
      "ok",
      "ok",
      "request.ratelimit.exceeded",
      "request.ratelimit.exceeded",
      "request.ratelimit.exceeded",
    ]);
    // The secret-taking endpoints' count is untouched by them, and leaves them alone in turn.
    expect(await attempts(3, () => limits.byAddress(acme, limitOf("login"), "10.0.0.1"))).toEqual([
      "ok",
      "ok",
      "request.ratelimit.exceeded",
    ]);
    expect(await attempts(1, () => limits.byAddress(acme, limitOf("logout"), "10.0.0.2"))).toEqual(["ok"]);
  });

  it("leaves alone the login ID of the endpoints that take no secret, and checklink's missing one", async () => {
    const limits = new RateLimits({ perAddressPerMinute: 1, perLoginIdPerMinute: 1 }, undefined);
    const acme = company("d2");
    expect(await attempts(3, () => limits.byLoginId(acme, limitOf("acceptdisclaimers"), "bob"))).toEqual([
      "ok",
      "ok",
      "ok",
    ]);
    expect(await attempts(3, () => limits.byLoginId(acme, limitOf("recovery/checklink"), "bob"))).toEqual([
      "ok",
      "ok",
      "ok",
    ]);
  });
});

describe("RateLimits per IPv6 network", () => {
  const five = { perAddressPerMinute: 5, perLoginIdPerMinute: 100 };
  /** The outcomes of one login request from each address. */
  const fromEach = (limits: RateLimits, acme: ReturnType<typeof company>, addresses: string[]) =>
    attempts(addresses.length, async () => {
      const address = addresses.shift() ?? "";
      await limits.byAddress(acme, limitOf("login"), address);
    });
  const ofOneSlash64 = Array.from({ length: 40 }, (_, i) => `2001:db8:1:2:${i.toString(16)}::${i + 1}`);

  it("counts the 40 addresses of one /64 as one client: 5 pass, 35 are refused", async () => {
    const outcomes = await fromEach(new RateLimits(five, undefined), company("v6-a"), [...ofOneSlash64]);
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(5);
    expect(outcomes.slice(5).every((outcome) => outcome === "request.ratelimit.exceeded")).toBe(true);
  });

  it("counts different /64s on their own", async () => {
    const limits = new RateLimits(five, undefined);
    const acme = company("v6-b");
    await fromEach(limits, acme, [...ofOneSlash64]);
    const neighbours = Array.from({ length: 5 }, (_, i) => `2001:db8:1:${i + 3}::1`);
    expect(await fromEach(limits, acme, neighbours)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  });

  it("counts by the configured prefix: with /48, the /64s of one /48 share one count", async () => {
    const limits = new RateLimits({ ...five, ipv6PrefixLength: 48 }, undefined);
    const ofOneSlash48 = Array.from({ length: 6 }, (_, i) => `2001:db8:1:${i.toString(16)}::1`);
    expect(await fromEach(limits, company("v6-c"), ofOneSlash48)).toEqual(fiveThenRefused);
  });

  it("counts each address alone with /128", async () => {
    const limits = new RateLimits({ ...five, ipv6PrefixLength: 128 }, undefined);
    const outcomes = await fromEach(limits, company("v6-d"), [...ofOneSlash64]);
    expect(outcomes.every((outcome) => outcome === "ok")).toBe(true);
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    const limits = new RateLimits(five, undefined);
    const addresses = ["192.0.2.7", "::ffff:192.0.2.7", "::FFFF:c000:207", "192.0.2.7", "::ffff:192.0.2.7"];
    expect(await fromEach(limits, company("v6-e"), [...addresses, "192.0.2.7"])).toEqual(fiveThenRefused);
    expect(await fromEach(limits, company("v6-e"), ["::ffff:192.0.2.8"])).toEqual(["ok"]);
  });
});

describe("RateLimits of oauth", () => {
  it("counts oauth per client address, since each call has identity ask a provider", async () => {
    const limits = new RateLimits({ perAddressPerMinute: 2, perLoginIdPerMinute: 100 }, undefined);
    expect(await attempts(3, () => limits.byAddress(company("g"), limitOf("oauth"), "10.0.0.1"))).toEqual([
      "ok",
      "ok",
      "request.ratelimit.exceeded",
    ]);
  });

  it("names no login ID: oauth is not counted per login ID", async () => {
    const limits = new RateLimits({ perAddressPerMinute: 100, perLoginIdPerMinute: 1 }, undefined);
    expect(
      await attempts(3, () => limits.byLoginId(company("h"), limitOf("oauth"), "oauth:1:subject")),
    ).toEqual(["ok", "ok", "ok"]);
  });
});

/**
 * A TCP proxy in front of the test's Redis whose replies can be held back: a Redis that hangs,
 * without closing the connection (commands still reach Redis; their replies wait).
 */
async function stallableRedis(target: URL) {
  const sockets = new Set<Socket>();
  let stalled = false;
  const upstreams = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    upstreams.add(upstream);
    if (stalled) upstream.pause();
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      upstreams.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stall: () => {
      stalled = true;
      for (const upstream of upstreams) upstream.pause();
    },
    resume: () => {
      stalled = false;
      for (const upstream of upstreams) upstream.resume();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe.runIf(process.env.TEST_REDIS_URL)("RateLimits on Redis", () => {
  const keyPrefix = `test:gateway:${process.pid}:${Date.now()}:`;
  const redisUrl = process.env.TEST_REDIS_URL ?? "";
  /** Generous for a busy machine: a reply that does not come is the proxy's doing, never slowness. */
  const commandTimeoutMs = 1_000;
  const connect = (url = redisUrl) =>
    connectRedis({ kind: "standalone", url }, { keyPrefix, commandTimeoutMs });
  const sharedCounts = (redis: Redis | Cluster, replicas = 1) => ({
    redis,
    availability: new RedisAvailability(redis, 50),
    replicas: new GatewayReplicas(replicas),
  });

  it("shares the counts between gateways that use the same Redis", async () => {
    const [one, two] = [await connect(), await connect()];
    try {
      const acme = company("e");
      const [first, second] = [
        new RateLimits(defaults, sharedCounts(one)),
        new RateLimits(defaults, sharedCounts(two)),
      ];
      await first.byLoginId(acme, limitOf("login"), "carol");
      await second.byLoginId(acme, limitOf("login"), "carol");
      await expect(first.byLoginId(acme, limitOf("login"), "carol")).rejects.toMatchObject({
        code: "request.ratelimit.exceeded",
      });
    } finally {
      one.disconnect();
      two.disconnect();
    }
  });

  it("counts in the process at once while the connection is broken, against this replica's share of the limit, without asking Redis", async () => {
    const redis = await connect();
    const ended = once(redis, "end");
    redis.disconnect();
    await ended;
    const commands = vi.spyOn(redis, "sendCommand");
    const limits = new RateLimits(
      { perAddressPerMinute: 100, perLoginIdPerMinute: 4 },
      sharedCounts(redis, 2),
    );
    expect(await attempts(3, () => limits.byLoginId(company("f"), limitOf("login"), "dave"))).toEqual([
      "ok",
      "ok",
      "request.ratelimit.exceeded",
    ]);
    expect(commands).not.toHaveBeenCalled();
  });

  it("never lets a request through uncounted on one slow reply: it answers service.unavailable and goes on counting in Redis", async () => {
    const proxy = await stallableRedis(new URL(redisUrl));
    const redis = await connect(proxy.url);
    try {
      const limits = new RateLimits(defaults, sharedCounts(redis));
      const acme = company("i");
      await limits.byLoginId(acme, limitOf("login"), "erin");
      proxy.stall();
      await expect(limits.byLoginId(acme, limitOf("login"), "erin")).rejects.toMatchObject({
        code: "service.unavailable",
        retryAfterSeconds: 1,
      });
      proxy.resume();
      // The slow command was counted by Redis all the same: the limit of 2 is reached.
      await expect(limits.byLoginId(acme, limitOf("login"), "erin")).rejects.toMatchObject({
        code: "request.ratelimit.exceeded",
      });
    } finally {
      redis.disconnect();
      proxy.close();
    }
  });

  it("counts in the process after failures in a row, against its share of the limit, and in Redis again once it answers", async () => {
    const proxy = await stallableRedis(new URL(redisUrl));
    const redis = await connect(proxy.url);
    const shared = sharedCounts(redis, 2);
    try {
      const limits = new RateLimits({ perAddressPerMinute: 100, perLoginIdPerMinute: 4 }, shared);
      const acme = company("j");
      proxy.stall();
      expect(await attempts(3, () => limits.byLoginId(acme, limitOf("login"), "frank"))).toEqual([
        "service.unavailable",
        "service.unavailable",
        "request.ratelimit.exceeded",
      ]);
      expect(shared.availability.gone).toBe(true);
      // Gone: a share of 4 / 2 gateways, counted at once in the process.
      expect(await attempts(3, () => limits.byLoginId(acme, limitOf("login"), "grace"))).toEqual([
        "ok",
        "ok",
        "request.ratelimit.exceeded",
      ]);
      proxy.resume();
      await vi.waitFor(() => expect(shared.availability.gone).toBe(false), { timeout: 30_000 });
      const other = await connect();
      try {
        await new RateLimits(defaults, sharedCounts(other)).byLoginId(acme, limitOf("login"), "heidi");
      } finally {
        other.disconnect();
      }
      // Redis's count of heidi (1 from the other gateway) decides again, not this replica's share.
      expect(await attempts(4, () => limits.byLoginId(acme, limitOf("login"), "heidi"))).toEqual([
        "ok",
        "ok",
        "ok",
        "request.ratelimit.exceeded",
      ]);
    } finally {
      shared.availability.close();
      redis.disconnect();
      proxy.close();
    }
  }, 60_000);
});

describe.runIf(process.env.TEST_REDIS_URL)("GatewayReplicas", () => {
  const keyPrefix = `test:gateway-replicas:${process.pid}:${Date.now()}:`;
  const connect = () =>
    connectRedis({ kind: "standalone", url: process.env.TEST_REDIS_URL ?? "" }, { keyPrefix });

  it("finds the gateways alive on the same Redis, and never counts below the configured number", async () => {
    const [one, two] = [await connect(), await connect()];
    const first = new GatewayReplicas(1, one);
    const second = new GatewayReplicas(1, two);
    try {
      await first.start();
      expect(first.count).toBe(1);
      await second.start();
      expect(second.count).toBe(2);
      expect(new GatewayReplicas(3, one).count).toBe(3);
      await first.stop();
      const third = new GatewayReplicas(1, one);
      await third.start();
      expect(third.count).toBe(2);
      await third.stop();
    } finally {
      await second.stop();
      one.disconnect();
      two.disconnect();
    }
  });
});
