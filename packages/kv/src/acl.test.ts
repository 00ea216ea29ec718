import { execFileSync } from "node:child_process";
import type { AuthError } from "@auth/errors";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAclUser } from "./acl.js";
import { type RunningCluster, startRedisCluster, startRedisServer } from "./cluster.js";
import { connectRedis, RedisKeyValueStore } from "./redis.js";
import type { RedisTarget } from "./target.js";

const redisServerInstalled = (() => {
  try {
    execFileSync("which", ["redis-server"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const user = redisAclUser("session", "session-password", "auth:session:");

/** Every operation of the store, as a service makes them; throws on the first refusal. */
async function everyOperation(store: RedisKeyValueStore): Promise<void> {
  await store.ping();
  await store.set("a", "1", 60_000);
  expect(await store.get("a")).toBe("1");
  expect(await store.setIfAbsent("b", "1", 60_000)).toBe(true);
  expect(await store.compareAndSet("b", "1", "2", 60_000)).toBe(true);
  expect(await store.take("b")).toBe("2");
  expect((await store.increment("c", 60_000)).count).toBe(1);
  expect((await store.readCounter("c")).count).toBe(1);
  expect(await store.decrement("c")).toBe(0);
  expect((await store.incrementCounters("h", 60_000, ["a", "b"], { a: 2 })).counted).toBe(true);
  expect((await store.readCounters("h")).counts).toEqual({ a: 1, b: 1 });
  await store.addToSet("s", "x", 60_000);
  expect(await store.setMembers("s")).toEqual(["x"]);
  await store.removeFromSet("s", "x");
  expect(await store.delete("a")).toBe(true);
  // The writes that append events, and the relay's reads and acknowledgements of the outbox.
  const events = { events: ['{"type":"test"}'] };
  await store.set("e", "1", 60_000, events);
  expect(await store.setIfAbsent("f", "1", 60_000, events)).toBe(true);
  expect(await store.compareAndSet("e", "1", "2", 60_000, events)).toBe(true);
  expect(await store.take("e", events)).toBe("2");
  expect(await store.delete("f", events)).toBe(true);
  expect((await store.increment("g", 60_000, events)).count).toBe(1);
  expect((await store.incrementBelow("g", 60_000, 2, events)).counted).toBe(true);
  expect((await store.incrementCounters("h", 60_000, ["a"], {}, events)).counted).toBe(true);
  expect(await store.decrement("g", events)).toBe(1);
  const appended = await store.outbox.read(100);
  expect(appended).toHaveLength(9);
  await store.outbox.acknowledge(appended.map((entry) => entry.position));
  expect(await store.outbox.read(100)).toEqual([]);
}

describe.skipIf(!redisServerInstalled).each([
  ["a standalone Redis", () => startRedisServer(["--user", ...user])],
  ["a Redis Cluster", () => startRedisCluster(3, ["--user", ...user])],
] as const)("a service's own ACL user on %s", (_, start) => {
  let redis: RunningCluster;
  beforeAll(async () => {
    redis = await start();
  });
  afterAll(() => redis?.stop());

  const target = (): RedisTarget => {
    const credentials = { username: "session", password: "session-password" };
    const [first] = redis.nodes;
    return redis.nodes.length > 1
      ? { kind: "cluster", nodes: redis.nodes, ...credentials }
      : { kind: "standalone", url: `redis://${first?.host}:${first?.port}`, ...credentials };
  };

  it("does every operation of the store under its own prefix", async () => {
    const store = new RedisKeyValueStore(await connectRedis(target(), { keyPrefix: "auth:session:" }));
    try {
      await everyOperation(store);
    } finally {
      await store.close();
    }
  });

  it("may not touch another service's keys, list keys or administer the server", async () => {
    const store = new RedisKeyValueStore(await connectRedis(target(), { keyPrefix: "auth:otp:" }));
    try {
      const refused = await store.set("a", "1", 60_000).catch((error: unknown) => error);
      expect((refused as AuthError).code).toBe("service.unavailable");
      expect(String((refused as AuthError).cause)).toMatch(/NOPERM/);
    } finally {
      await store.close();
    }
    const [first] = redis.nodes;
    const raw = new Redis({
      host: first?.host,
      port: first?.port,
      username: "session",
      password: "session-password",
    });
    try {
      for (const command of [
        ["keys", "*"],
        ["flushall"],
        ["config", "get", "*"],
        ["acl", "list"],
        ["get", "auth:otp:a"],
      ]) {
        const [name, ...args] = command as [string, ...string[]];
        await expect(raw.call(name, ...args), name).rejects.toThrow(/NOPERM/);
      }
    } finally {
      raw.disconnect();
    }
  });
});
