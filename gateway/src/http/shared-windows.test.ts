import { connectRedis } from "@auth/kv";
import { deleteKeys } from "@auth/kv/testing";
import type { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedWindows } from "./shared-windows.js";
import { windowMs } from "./window-counts.js";

describe.runIf(process.env.TEST_REDIS_URL)("SharedWindows: a window's count in Redis", () => {
  const url = process.env.TEST_REDIS_URL ?? "";
  const keyPrefix = `test:gateway-windows:${process.pid}:${Date.now()}:`;
  let redis: Redis | Cluster;
  beforeAll(async () => {
    redis = await connectRedis({ kind: "standalone", url }, { keyPrefix });
  });
  afterAll(async () => {
    redis?.disconnect();
    await deleteKeys(url, keyPrefix);
  });

  const window = (own: number, end = Date.now() + windowMs) => ({ own, end, othersHeard: 0 });

  it("is the sum of the gateways' counts, each raised to the count its gateway gives and never added twice", async () => {
    const [first, second] = [new SharedWindows(redis, "first"), new SharedWindows(redis, "second")];
    const firsts = window(3);
    expect(await first.give("sum", firsts)).toBe(3);
    expect(await second.give("sum", window(2))).toBe(5);
    // The same count again (a command run late, or given back when Redis returns) adds nothing.
    expect(await first.give("sum", firsts)).toBe(5);
    expect(await first.give("sum", window(1))).toBe(5);
    expect(await first.give("sum", window(4))).toBe(6);
  });

  it("tells the gateway the window's end and what the others counted in it", async () => {
    const [first, second] = [new SharedWindows(redis, "first"), new SharedWindows(redis, "second")];
    const began = window(2);
    await first.give("told", began);
    const later = window(1, began.end + 5_000);
    await second.give("told", later);
    expect(later).toEqual({ own: 1, end: began.end, othersHeard: 2 });
  });

  it("begins a new window at the end the gateway gives, and the key expires then", async () => {
    const end = Date.now() + 30_000;
    await new SharedWindows(redis, "first").give("new", window(1, end));
    expect(await redis.hget("new", "end")).toBe(String(end));
    expect(Math.abs((await redis.pttl("new")) - (end - Date.now()))).toBeLessThan(1_000);
  });

  it("gives a second window its count in the same step only while the first is within its limit", async () => {
    const windows = new SharedWindows(redis, "first");
    const address = window(2);
    const login = window(1);
    expect(
      await windows.giveWithin({ key: "a", count: address, limit: 2 }, { key: "b", count: login }),
    ).toEqual([2, 1]);
    address.own = 3;
    login.own = 2;
    expect(
      await windows.giveWithin({ key: "a", count: address, limit: 2 }, { key: "b", count: login }),
    ).toEqual([3, undefined]);
    expect(await redis.hget("b", "first")).toBe("1");
  });

  it("adds nothing for a window that is over (a command run after its window ended): no key is left", async () => {
    const over = window(3, Date.now() - 1);
    await new SharedWindows(redis, "first").give("over", over);
    expect(await redis.exists("over")).toBe(0);
  });
});
