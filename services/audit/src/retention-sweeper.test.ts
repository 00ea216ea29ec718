import { afterEach, describe, expect, it } from "vitest";
import { capturingLogger } from "./events.testing.js";
import { startRetentionSweeper } from "./retention-sweeper.js";

const hour = 3_600_000;
let sweepers: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(sweepers.map((sweeper) => sweeper.stop()));
  sweepers = [];
});

function sweeping(options: {
  intervalMs: number;
  sweep: (now: Date) => Promise<number>;
  ready?: Promise<void>;
}) {
  const log = capturingLogger();
  const sweeper = startRetentionSweeper({
    store: { sweepRetention: options.sweep },
    intervalMs: options.intervalMs,
    logger: log.logger,
    ready: options.ready,
  });
  sweepers.push(sweeper);
  return { sweeper, log };
}

describe("the retention sweeper", () => {
  it("sweeps once the database answers, without waiting for the first interval", async () => {
    let open = () => {};
    const ready = new Promise<void>((resolve) => {
      open = resolve;
    });
    const sweeps: Date[] = [];
    sweeping({ intervalMs: hour, ready, sweep: async (now) => sweeps.push(now) && 0 });
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(sweeps).toEqual([]);
    open();
    await expect.poll(() => sweeps.length, { timeout: 30_000, interval: 10 }).toBe(1);
    expect(Math.abs((sweeps[0]?.getTime() ?? 0) - Date.now())).toBeLessThan(30_000);
  });

  it("sweeps again every interval, and after a sweep that failed", async () => {
    let calls = 0;
    const { log } = sweeping({
      intervalMs: 10,
      sweep: async () => {
        calls += 1;
        if (calls === 2) throw new Error("database unavailable");
        return 3;
      },
    });
    await expect.poll(() => calls, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(4);
    expect(log.lines.some((line) => line.includes("database unavailable"))).toBe(true);
    expect(log.lines.some((line) => line.includes('"deleted":3'))).toBe(true);
  });

  it("waits, when stopped, for the sweep under way", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let underWay = false;
    let finished = false;
    const { sweeper } = sweeping({
      intervalMs: hour,
      sweep: async () => {
        underWay = true;
        await gate;
        finished = true;
        return 0;
      },
    });
    await expect.poll(() => underWay, { timeout: 30_000, interval: 10 }).toBe(true);
    let stopped = false;
    const stopping = sweeper.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
  });

  it("stops at once between two sweeps", async () => {
    let calls = 0;
    const { sweeper } = sweeping({ intervalMs: hour, sweep: async () => ++calls && 0 });
    await expect.poll(() => calls, { timeout: 30_000, interval: 10 }).toBe(1);
    await sweeper.stop();
    expect(calls).toBe(1);
  });
});
