import { describe, expect, it } from "vitest";
import { nextAttemptAt, retryDelayMs } from "./retry-schedule.js";

const settings = { WEBHOOK_RETRY_BASE_MS: 5_000, WEBHOOK_RETRY_MAX_MS: 3_600_000 };
/** The jitter's bounds: `random` runs from 0 towards 1, the factor from 0.5 towards 1. */
const highest = () => 1;
const lowest = () => 0;

describe("retry delay", () => {
  it("is the base after the first failure, and doubles with each further one", () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, settings, highest))).toEqual([
      5_000, 10_000, 20_000, 40_000,
    ]);
  });

  it("never exceeds the maximum, however many attempts failed", () => {
    expect(retryDelayMs(12, settings, highest)).toBe(3_600_000);
    expect(retryDelayMs(10_000, settings, highest)).toBe(3_600_000);
  });

  it("is at least half its step: the jitter's factor runs from 0.5 to 1", () => {
    expect(retryDelayMs(3, settings, lowest)).toBe(10_000);
    expect(retryDelayMs(3, settings, () => 0.5)).toBe(15_000);
    expect(retryDelayMs(12, settings, lowest)).toBe(1_800_000);
  });
});

describe("next attempt", () => {
  const now = new Date("2030-01-01T00:00:00Z");

  it("is now plus the delay while that is within the retry period", () => {
    const retryUntil = new Date(now.getTime() + 60_000);
    expect(nextAttemptAt({ attempts: 2, retryUntil }, now, settings, lowest)).toEqual(
      new Date(now.getTime() + 5_000),
    );
  });

  it("is none (the delivery is dead) when it would fall after the retry period", () => {
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(nextAttemptAt({ attempts: 1, retryUntil: at(2_499) }, now, settings, lowest)).toBeUndefined();
    expect(nextAttemptAt({ attempts: 1, retryUntil: at(2_500) }, now, settings, lowest)).toEqual(at(2_500));
  });
});
