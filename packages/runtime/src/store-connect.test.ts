import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectWithRetry, type StoreConnection } from "./store-connect.js";

interface Line {
  level: number;
  msg: string;
  store?: string;
  attempt?: number;
  attempts?: number;
  error?: string;
  retryInMs?: number;
}

function capturingLogger() {
  const lines: Line[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
  return {
    logger,
    lines,
    warnings: () => lines.filter((line) => line.msg === "store not reached, retrying"),
  };
}

/** A store that fails its first `failures` attempts with the given error, then answers. */
function flakyStore(
  failures: number,
  fail: () => Promise<void> = () => Promise.reject(new Error("refused")),
) {
  let attempts = 0;
  const connection: StoreConnection & { attempts(): number } = {
    store: "redis standalone",
    attempt: () => {
      attempts += 1;
      return attempts <= failures ? fail() : Promise.resolve();
    },
    abandon: vi.fn(),
    attempts: () => attempts,
  };
  return connection;
}

const quick = { attemptTimeoutMs: 1_000, maxDelayMs: 5 };

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("connecting to a store at start-up", () => {
  it("goes on until an attempt succeeds, with one warning per failed attempt", async () => {
    const { logger, lines, warnings } = capturingLogger();
    const store = flakyStore(3, () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")));
    await connectWithRetry(store, quick, logger, new AbortController().signal);

    expect(store.attempts()).toBe(4);
    expect(warnings().map(({ store, attempt, error }) => ({ store, attempt, error }))).toEqual(
      [1, 2, 3].map((attempt) => ({
        store: "redis standalone",
        attempt,
        error: "connect ECONNREFUSED 127.0.0.1:1",
      })),
    );
    expect(warnings().every((line) => line.level === 40)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ msg: "store reached", store: "redis standalone", attempts: 4 });
    // Each failed attempt is closed before the next starts.
    expect(store.abandon).toHaveBeenCalledTimes(3);
  });

  it("waits a random time below a bound that doubles from 200 ms up to the maximum (full jitter)", async () => {
    vi.useFakeTimers();
    const { logger, warnings } = capturingLogger();
    const store = flakyStore(8);
    const random = vi.spyOn(Math, "random").mockReturnValue(0.9999);
    const connected = connectWithRetry(
      store,
      { attemptTimeoutMs: 1_000, maxDelayMs: 5_000 },
      logger,
      new AbortController().signal,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    await connected;
    expect(warnings().map((line) => line.retryInMs)).toEqual([199, 399, 799, 1599, 3199, 4999, 4999, 4999]);

    random.mockReturnValue(0.25);
    const again = capturingLogger();
    const second = connectWithRetry(
      flakyStore(3),
      { attemptTimeoutMs: 1_000, maxDelayMs: 5_000 },
      again.logger,
      new AbortController().signal,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    await second;
    expect(again.warnings().map((line) => line.retryInMs)).toEqual([50, 100, 200]);
  });

  it("fails an attempt that hangs past its timeout, closes it, and tries again", async () => {
    const { logger, warnings } = capturingLogger();
    const store = flakyStore(1, () => new Promise<void>(() => {}));
    const started = Date.now();
    await connectWithRetry(
      store,
      { attemptTimeoutMs: 100, maxDelayMs: 5 },
      logger,
      new AbortController().signal,
    );

    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(store.attempts()).toBe(2);
    expect(store.abandon).toHaveBeenCalledTimes(1);
    expect(warnings()).toEqual([
      expect.objectContaining({ attempt: 1, error: "Operation timed out after 100ms" }),
    ]);
  });

  it("stops trying once stopped, and rejects", async () => {
    const { logger, warnings } = capturingLogger();
    const stop = new AbortController();
    const store = flakyStore(Number.POSITIVE_INFINITY);
    const connected = connectWithRetry(store, quick, logger, stop.signal);
    await vi.waitFor(() => expect(warnings().length).toBeGreaterThanOrEqual(2));
    stop.abort();
    await expect(connected).rejects.toThrow();
    const attempts = store.attempts();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.attempts()).toBe(attempts);
  });
});
