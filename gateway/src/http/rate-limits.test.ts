import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";
import { AuthError } from "@auth/errors";
import { connectRedis, openRedis } from "@auth/kv";
import type { CompanyPolicy } from "@auth/proto/identity";
import { createLogger } from "@auth/runtime";
import { tcpGate } from "@auth/testing";
import type { Cluster, Redis } from "ioredis";
import { describe, expect, it, vi } from "vitest";
import { tenantCompany } from "../endpoint/tenant-company.testing.js";
import type { Operation } from "../endpoint/transitions.js";
import { endpoints } from "../routes.js";
import { type PrivateRedis, redisServerMissing, startPrivateRedis } from "../testing/private-redis.js";
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
    const others = [
      "logout",
      "setpassword",
      "acceptdisclaimers",
      "sessions",
      "sessions/end",
      "events",
    ] as const;
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
        const otherGateway = new RateLimits(
          { perAddressPerMinute: 100, perLoginIdPerMinute: 4 },
          sharedCounts(other),
        );
        await attempts(3, () => otherGateway.byLoginId(acme, limitOf("login"), "heidi"));
      } finally {
        other.disconnect();
      }
      // Redis's count of heidi (3 from the other gateway) decides again: this replica's share (2)
      // alone would let a second request through.
      expect(await attempts(2, () => limits.byLoginId(acme, limitOf("login"), "heidi"))).toEqual([
        "ok",
        "request.ratelimit.exceeded",
      ]);
    } finally {
      shared.availability.close();
      redis.disconnect();
      proxy.close();
    }
  }, 60_000);

  describe("the address and the login ID of a request whose body names it, counted together", () => {
    /** The names of the commands `redis` sent while `act` ran. */
    async function commandsOf(redis: Redis | Cluster, act: () => Promise<unknown>): Promise<string[]> {
      const sent = vi.spyOn(redis, "sendCommand");
      try {
        await act();
        return sent.mock.calls.map(([command]) => command.name);
      } finally {
        sent.mockRestore();
      }
    }

    it("takes one round trip for both counts", async () => {
      const redis = await connect();
      try {
        const limits = new RateLimits(defaults, sharedCounts(redis));
        const acme = company("k");
        // The first use of a script on a connection may load it (NOSCRIPT, then EVAL).
        await limits.byAddressAndLoginId(acme, limitOf("login"), "10.0.0.1", "ivan");
        expect(
          await commandsOf(redis, () =>
            limits.byAddressAndLoginId(acme, limitOf("checkcredentials"), "10.0.0.2", "ivan"),
          ),
        ).toEqual(["evalsha"]);
        // Both were counted: ivan's limit of 2 is reached, the addresses' are not.
        await expect(
          limits.byAddressAndLoginId(acme, limitOf("login"), "10.0.0.3", "ivan"),
        ).rejects.toMatchObject({
          code: "request.ratelimit.exceeded",
          message: "too many requests per login ID",
        });
        await limits.byAddress(acme, limitOf("login"), "10.0.0.1");
      } finally {
        redis.disconnect();
      }
    });

    it("leaves the login ID's window untouched when the address is over its limit, with other requests about the login ID in flight", async () => {
      const redis = await connect();
      try {
        const limits = new RateLimits(defaults, sharedCounts(redis));
        const acme = company("l");
        const login = limitOf("login");
        for (const other of ["u1", "u2", "u3"])
          await limits.byAddressAndLoginId(acme, login, "10.0.0.1", other);
        const outcomes = await Promise.all([
          ...Array.from({ length: 5 }, () =>
            attempts(1, () => limits.byAddressAndLoginId(acme, login, "10.0.0.1", "judy")),
          ),
          attempts(1, () => limits.byAddressAndLoginId(acme, login, "10.0.0.2", "judy")),
        ]);
        expect(outcomes.flat()).toEqual([...Array(5).fill("request.ratelimit.exceeded"), "ok"]);
        // One request counted of judy in Redis: the gateway's field, beside the window's end.
        const fields = Object.entries(await redis.hgetall("rate:login:l:judy"));
        expect(fields.filter(([name]) => name !== "end").map(([, count]) => count)).toEqual(["1"]);
        // judy's limit of 2 has room for one more request, from an address within its own limit.
        expect(await attempts(2, () => limits.byAddressAndLoginId(acme, login, "10.0.0.3", "judy"))).toEqual([
          "ok",
          "request.ratelimit.exceeded",
        ]);
      } finally {
        redis.disconnect();
      }
    });

    it("counts both in the process while Redis is away, as before: the address first, the login ID only within its limit", async () => {
      const redis = await connect();
      const ended = once(redis, "end");
      redis.disconnect();
      await ended;
      const limits = new RateLimits({ perAddressPerMinute: 2, perLoginIdPerMinute: 1 }, sharedCounts(redis));
      const acme = company("m");
      const login = limitOf("checkcredentials");
      expect(
        await commandsOf(redis, async () => {
          for (const other of ["u1", "u2"]) await limits.byAddressAndLoginId(acme, login, "10.0.0.1", other);
          expect(
            await attempts(1, () => limits.byAddressAndLoginId(acme, login, "10.0.0.1", "kate")),
          ).toEqual(["request.ratelimit.exceeded"]);
          expect(
            await attempts(2, () => limits.byAddressAndLoginId(acme, login, "10.0.0.2", "kate")),
          ).toEqual(["ok", "request.ratelimit.exceeded"]);
        }),
      ).toEqual([]);
    });
  });
});

describe.skipIf(redisServerMissing())(
  "RateLimits across a Redis outage, at a limit of 8 a minute per login ID",
  () => {
    const limit = 8;
    const keyPrefix = "gateway:";
    const acme = company("outage");
    const login = limitOf("login");

    type Gateway = Awaited<ReturnType<typeof gatewayOn>>;

    /** Until the check passes: a restart and the reconnections after it take seconds on a busy machine. */
    const eventually = (check: () => unknown) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

    /** A gateway's rate limits: its own connection, a PING every 50 ms while Redis is gone, `replicas` gateways in all. */
    async function gatewayOn(url: string, replicas: number) {
      const redis = await connectRedis({ kind: "standalone", url }, { keyPrefix, commandTimeoutMs: 1_000 });
      const availability = new RedisAvailability(redis, 50);
      const limits = new RateLimits(
        { perAddressPerMinute: 1_000, perLoginIdPerMinute: limit },
        { redis, availability, replicas: new GatewayReplicas(replicas) },
      );
      return {
        limits,
        availability,
        close: () => {
          availability.close();
          redis.disconnect();
        },
      };
    }

    /**
     * One client's logins, one at a time, to the gateways in turn (as a load balancer spreads them),
     * or to the one named; `letThrough` counts every request that passed.
     */
    function clientOf(gateways: Gateway[], loginId: string) {
      let turn = 0;
      const outcomes: string[] = [];
      return {
        async send(times: number, to?: Gateway) {
          const sent = await attempts(times, () => {
            const gateway = to ?? gateways[turn++ % gateways.length];
            return gateway?.limits.byLoginId(acme, login, loginId) ?? Promise.reject(new Error("no gateway"));
          });
          outcomes.push(...sent);
          return sent;
        },
        letThrough: () => outcomes.filter((outcome) => outcome === "ok").length,
        attempts: () => outcomes.length,
      };
    }

    /** Other clients' requests at the gateway, each failing after the command timeout, until it counts Redis as gone. */
    async function untilGone(gateway: Gateway) {
      await Promise.all(
        ["someone", "someone else", "a third"].map((loginId) =>
          gateway.limits.byLoginId(acme, login, loginId).catch(() => undefined),
        ),
      );
      expect(gateway.availability.gone).toBe(true);
    }

    /** Waits until every gateway counts on Redis again; the milliseconds that took. */
    async function untilBack(gateways: Gateway[]): Promise<number> {
      const since = Date.now();
      await eventually(() => expect(gateways.every((gateway) => !gateway.availability.gone)).toBe(true));
      return Date.now() - since;
    }

    /** Redis's window of the login ID: the gateways' counts in it, and its end. */
    async function windowInRedis(redis: PrivateRedis, loginId: string) {
      const reader = await connectRedis({ kind: "standalone", url: redis.url }, { keyPrefix });
      try {
        const key = `rate:login:${acme.id}:${loginId}`;
        const { end, ...gateways } = await reader.hgetall(key);
        const counts = Object.values(gateways).map(Number);
        return {
          counts,
          total: counts.reduce((sum, count) => sum + count, 0),
          end: Number(end),
          ttl: await reader.pttl(key),
        };
      } finally {
        reader.disconnect();
      }
    }

    /** The test's own redis-server and `count` gateways on it, all closed afterwards. */
    async function withGateways(
      count: number,
      test: (redis: PrivateRedis, gateways: Gateway[]) => Promise<void>,
    ) {
      const redis = await startPrivateRedis();
      const gateways: Gateway[] = [];
      try {
        for (let i = 0; i < count; i += 1) gateways.push(await gatewayOn(redis.url, count));
        await test(redis, gateways);
      } finally {
        for (const gateway of gateways) gateway.close();
        await redis.close();
      }
    }

    describe.each([1, 2])("with %i gateway(s) sharing the Redis", (count) => {
      it("never lets more than the limit through across a freeze and thaw: what went through from memory is added to Redis's window", async () => {
        await withGateways(count, async (redis, gateways) => {
          const client = clientOf(gateways, `frozen-${count}`);
          expect(await client.send(2 * count)).toEqual(Array(2 * count).fill("ok"));
          redis.freeze();
          await Promise.all(gateways.map(untilGone));
          await client.send(10);
          redis.thaw();
          const backMs = await untilBack(gateways);
          await eventually(async () =>
            expect((await windowInRedis(redis, `frozen-${count}`)).total).toBe(client.attempts()),
          );
          await client.send(10);
          console.log(
            `freeze and thaw, ${count} gateway(s): ${client.letThrough()} let through at a limit of ${limit}; back ${backMs} ms after the thaw`,
          );
          expect(client.letThrough()).toBe(limit);
          await eventually(async () =>
            expect((await windowInRedis(redis, `frozen-${count}`)).total).toBe(client.attempts()),
          );
        });
      });

      it("never lets more than the limit through across a restart that empties Redis: its window is filled again from memory's counts", async () => {
        await withGateways(count, async (redis, gateways) => {
          const client = clientOf(gateways, `restarted-${count}`);
          expect(await client.send(limit)).toEqual(Array(limit).fill("ok"));
          await redis.crash();
          await eventually(() => expect(gateways.every((gateway) => gateway.availability.gone)).toBe(true));
          await client.send(4);
          const starting = Date.now();
          await redis.start();
          const upMs = Date.now() - starting;
          const backMs = await untilBack(gateways);
          await eventually(async () =>
            expect((await windowInRedis(redis, `restarted-${count}`)).total).toBe(client.attempts()),
          );
          await client.send(10);
          console.log(
            `restart empty, ${count} gateway(s): ${client.letThrough()} let through at a limit of ${limit}; Redis up in ${upMs} ms, back ${backMs} ms after it answered`,
          );
          expect(client.letThrough()).toBe(limit);
          await eventually(async () =>
            expect((await windowInRedis(redis, `restarted-${count}`)).total).toBe(client.attempts()),
          );
        });
      });
    });

    it("neither loses nor counts twice the requests in flight when Redis froze: their commands run at the thaw, and memory's count is the same count", async () => {
      await withGateways(1, async (redis, gateways) => {
        const client = clientOf(gateways, "in-flight");
        await client.send(2);
        redis.freeze();
        const inFlight = clientOf(gateways, "in-flight");
        await Promise.all(Array.from({ length: 6 }, () => inFlight.send(1)));
        expect(gateways[0]?.availability.gone).toBe(true);
        redis.thaw();
        await untilBack(gateways);
        await client.send(4);
        expect(client.letThrough() + inFlight.letThrough()).toBeLessThanOrEqual(limit);
        await eventually(async () => expect((await windowInRedis(redis, "in-flight")).total).toBe(12));
      });
    });

    it("holds each gateway to its share for a window after Redis is back, while another gateway has not given its counts back yet", async () => {
      const redis = await startPrivateRedis();
      // The second gateway reaches Redis through a gate that stays shut after the restart.
      const gate = await tcpGate({ host: "127.0.0.1", port: redis.port });
      await gate.open("through");
      const first = await gatewayOn(redis.url, 2);
      const second = await gatewayOn(`redis://127.0.0.1:${gate.port}`, 2);
      try {
        const client = clientOf([first, second], "one-back");
        await redis.crash();
        await gate.close();
        await eventually(() => expect(first.availability.gone && second.availability.gone).toBe(true));
        // Each gateway lets its share (4) through from memory.
        await client.send(10);
        expect(client.letThrough()).toBe(limit);
        await redis.start();
        await untilBack([first]);
        // Redis has the first gateway's 4 only; its share still holds.
        expect(await client.send(4, first)).toEqual(Array(4).fill("request.ratelimit.exceeded"));
        await gate.open("through");
        await untilBack([second]);
        await eventually(async () => expect((await windowInRedis(redis, "one-back")).counts).toHaveLength(2));
        await client.send(4);
        expect(client.letThrough()).toBe(limit);
      } finally {
        first.close();
        second.close();
        await gate.close();
        await redis.close();
      }
    });

    it("lets a gateway that heard the others' count in Redis through no more than what they left, while Redis is away", async () => {
      await withGateways(2, async (redis, gateways) => {
        const [first, second] = gateways as [Gateway, Gateway];
        const client = clientOf(gateways, "heard");
        await client.send(6, first);
        await client.send(1, second);
        await redis.crash();
        await eventually(() => expect(second.availability.gone).toBe(true));
        // Its share is 4, but the others had 6 of the 8.
        expect(await client.send(3, second)).toEqual([
          "ok",
          "request.ratelimit.exceeded",
          "request.ratelimit.exceeded",
        ]);
        await redis.start();
        await untilBack(gateways);
        await client.send(4);
        expect(client.letThrough()).toBe(limit);
      });
    });

    it("keeps the end of a window begun in memory when Redis gets it, and a gateway whose own window began later takes Redis's", async () => {
      const redis = await startPrivateRedis();
      // The second gateway reaches Redis through a gate, shut until the first has given its window.
      const gate = await tcpGate({ host: "127.0.0.1", port: redis.port });
      await gate.open("through");
      const first = await gatewayOn(redis.url, 2);
      const second = await gatewayOn(`redis://127.0.0.1:${gate.port}`, 2);
      const client = clientOf([first, second], "window");
      try {
        await redis.crash();
        await gate.close();
        await eventually(() => expect(first.availability.gone && second.availability.gone).toBe(true));
        const before = Date.now();
        await client.send(2, first);
        const after = Date.now();
        // Two seconds later, the second gateway begins a window of its own.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        await client.send(1, second);
        await redis.start();
        await eventually(async () => expect((await windowInRedis(redis, "window")).total).toBe(2));
        const begun = await windowInRedis(redis, "window");
        expect(begun.end).toBeGreaterThanOrEqual(before + 60_000);
        expect(begun.end).toBeLessThanOrEqual(after + 60_000);
        // The key expires when the window ends.
        expect(Math.abs(begun.ttl - (begun.end - Date.now()))).toBeLessThan(1_000);
        await gate.open("through");
        await eventually(async () => expect((await windowInRedis(redis, "window")).total).toBe(3));
        expect((await windowInRedis(redis, "window")).end).toBe(begun.end);
        // Past its share (4), the second gateway's Retry-After is the time left of Redis's window.
        const asking = Date.now();
        const [, , , refused] = await attempts(4, () => second.limits.byLoginId(acme, login, "window"));
        expect(refused).toBe("request.ratelimit.exceeded");
        const retryAfter = await second.limits
          .byLoginId(acme, login, "window")
          .catch((error) => error.retryAfterSeconds);
        expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((begun.end - Date.now()) / 1000));
        expect(retryAfter).toBeLessThanOrEqual(Math.ceil((begun.end - asking) / 1000));
      } finally {
        first.close();
        second.close();
        await gate.close();
        await redis.close();
      }
    });

    it("gives Redis, once it is first reached, what it counted in memory before", async () => {
      const redis = await startPrivateRedis();
      await redis.crash();
      const opened = openRedis(
        { kind: "standalone", url: redis.url },
        {
          keyPrefix,
          commandTimeoutMs: 1_000,
          retry: { attemptTimeoutMs: 1_000, maxDelayMs: 200 },
          logger: createLogger("rate-limits-test", "silent"),
        },
      );
      const availability = new RedisAvailability(opened.client, 50);
      const limits = new RateLimits(
        { perAddressPerMinute: 1_000, perLoginIdPerMinute: limit },
        { redis: opened.client, availability, replicas: new GatewayReplicas(1) },
      );
      try {
        expect(await attempts(3, () => limits.byLoginId(acme, login, "before-reached"))).toEqual([
          "ok",
          "ok",
          "ok",
        ]);
        await redis.start();
        await opened.ready;
        await eventually(async () => expect((await windowInRedis(redis, "before-reached")).total).toBe(3));
      } finally {
        availability.close();
        await opened.close();
        await redis.close();
      }
    });

    it("gives its counts back again after the next PING when Redis refused them (out of memory)", async () => {
      const redis = await startPrivateRedis();
      // The gateway reaches Redis through a gate, shut until Redis is set to refuse writes.
      const gate = await tcpGate({ host: "127.0.0.1", port: redis.port });
      await gate.open("through");
      const gateway = await gatewayOn(`redis://127.0.0.1:${gate.port}`, 1);
      try {
        await redis.crash();
        await gate.close();
        await eventually(() => expect(gateway.availability.gone).toBe(true));
        expect(await clientOf([gateway], "refused").send(3)).toEqual(["ok", "ok", "ok"]);
        await redis.start();
        const admin = await connectRedis({ kind: "standalone", url: redis.url }, { keyPrefix });
        const refused = async () =>
          Number(/errorstat_OOM:count=(\d+)/.exec(await admin.info("errorstats"))?.[1] ?? 0);
        try {
          await admin.config("SET", "maxmemory", "1");
          await gate.open("through");
          // Refused at the reconnection, then again after a PING answered.
          await eventually(async () => expect(await refused()).toBeGreaterThanOrEqual(2));
          await admin.config("SET", "maxmemory", "0");
        } finally {
          admin.disconnect();
        }
        await eventually(async () => expect((await windowInRedis(redis, "refused")).total).toBe(3));
      } finally {
        gateway.close();
        await gate.close();
        await redis.close();
      }
    });
  },
);

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
