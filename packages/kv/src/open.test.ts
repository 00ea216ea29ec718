import { randomUUID } from "node:crypto";
import { freePort } from "@auth/runtime";
import { tcpGate, testBudgets } from "@auth/testing";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { openKeyValueStore } from "./open.js";
import { deleteKeys } from "./testing.js";

const redisUrl = process.env.TEST_REDIS_URL;

/** A port in front of the test Redis (packages/testing, tcp-gate.ts). */
function gate() {
  const upstream = new URL(redisUrl ?? "");
  return tcpGate({ host: upstream.hostname, port: Number(upstream.port || 6379) });
}

function logLines() {
  const lines: Array<{ msg: string; attempt?: number; error?: string }> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, failures: () => lines.filter((line) => line.msg === "store not reached, retrying") };
}

/**
 * An attempt's time: long enough that a loaded machine's event loop sees a closed port's refusal
 * before the attempt's timer (with 300 ms, the first failure was at times the timeout).
 */
const retry = { attemptTimeoutMs: 2_000, maxDelayMs: 50 };
const cleanUps: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0)) await cleanUp();
});

describe.runIf(redisUrl)("a Redis store opened while Redis is unreachable", () => {
  async function openThrough(port: number) {
    const keyPrefix = `test:${randomUUID()}:`;
    const { logger, failures } = logLines();
    const opened = openKeyValueStore(
      { kind: "standalone", url: `redis://127.0.0.1:${port}` },
      { keyPrefix, commandTimeoutMs: 1_000, retry, logger },
    );
    cleanUps.push(async () => {
      await opened.close();
      await deleteKeys(redisUrl ?? "", keyPrefix);
    });
    return { ...opened, failures };
  }
  const pending = (promise: Promise<unknown>) =>
    Promise.race([
      promise.then(() => "settled"),
      new Promise((resolve) => setTimeout(resolve, 20, "pending")),
    ]);

  it("keeps trying a closed port, fails operations meanwhile, and works once Redis answers, reconnecting by itself after a drop", {
    timeout: testBudgets.testMs,
  }, async () => {
    const redis = await gate();
    cleanUps.push(() => redis.close());
    const opened = await openThrough(redis.port);
    await expect
      .poll(() => opened.failures().length, { timeout: testBudgets.testMs })
      .toBeGreaterThanOrEqual(2);
    expect(opened.failures()[0]).toMatchObject({
      attempt: 1,
      error: expect.stringContaining("ECONNREFUSED"),
    });
    expect(await pending(opened.ready)).toBe("pending");
    await expect(opened.store.get("k")).rejects.toMatchObject({ code: "service.unavailable" });

    await redis.open("through");
    await opened.ready;
    await opened.store.set("k", "v", 60_000);
    expect(await opened.store.get("k")).toBe("v");

    // After the first answer, ioredis reconnects by itself as before.
    redis.cut();
    await expect
      .poll(() => opened.store.get("k").catch(() => "unavailable"), { timeout: testBudgets.testMs })
      .toBe("v");
  });

  it("gives up each attempt on a Redis that hangs, and connects once it answers", {
    timeout: testBudgets.testMs,
  }, async () => {
    const redis = await gate();
    cleanUps.push(() => redis.close());
    await redis.open("frozen");
    const opened = await openThrough(redis.port);
    await expect
      .poll(() => opened.failures().length, { timeout: testBudgets.testMs })
      .toBeGreaterThanOrEqual(2);
    expect(opened.failures()[0]?.error).toBe(`Operation timed out after ${retry.attemptTimeoutMs}ms`);

    await redis.open("through");
    await opened.ready;
    expect(await opened.store.get("absent")).toBeNull();
  });

  it("stops trying once closed", { timeout: testBudgets.testMs }, async () => {
    const opened = await openThrough(await freePort());
    await expect
      .poll(() => opened.failures().length, { timeout: testBudgets.testMs })
      .toBeGreaterThanOrEqual(1);
    await opened.close();
    await expect(opened.ready).rejects.toThrow();
    const attempts = opened.failures().length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(opened.failures().length).toBe(attempts);
  });
});

describe("the in-process store", () => {
  it("is ready at once", async () => {
    const { logger } = logLines();
    const opened = openKeyValueStore(undefined, { keyPrefix: "", retry, logger });
    await opened.ready;
    await opened.store.set("k", "v", 1_000);
    expect(await opened.store.get("k")).toBe("v");
    await opened.close();
  });
});
