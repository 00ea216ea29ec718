import { describe, expect, it } from "vitest";
import { failureOf, startFakeProvider } from "./fake-provider.testing.js";
import {
  failureOfAnswer,
  failureOfNetwork,
  type RetryRule,
  type SendFailure,
  sendWithRetries,
  waitBeforeRetry,
} from "./sms-retries.js";

const rule = (idempotent: boolean): RetryRule => ({ timeoutMs: 3_000, retries: 2, idempotent });

describe("the retry rule of SMS sends (docs/decisions.md, SMS providers)", () => {
  it.each<[string, SendFailure, number | undefined, number | undefined]>([
    ["a refused connection", { outcome: "not-taken", problem: "ECONNREFUSED" }, 100, 100],
    ["503", failureOfAnswer(503, null, "503"), 100, 100],
    ["429 with a Retry-After within the timeout", failureOfAnswer(429, "2", "429"), 2_000, 2_000],
    ["429 with a Retry-After beyond the timeout", failureOfAnswer(429, "4", "429"), undefined, undefined],
    ["a timeout", { outcome: "maybe-taken", problem: "TimeoutError" }, undefined, 100],
    ["500", failureOfAnswer(500, null, "500"), undefined, 100],
    ["502", failureOfAnswer(502, null, "502"), undefined, 100],
    ["bad credentials (401)", failureOfAnswer(401, null, "401"), undefined, undefined],
    ["a refused number (400)", failureOfAnswer(400, null, "400"), undefined, undefined],
  ])(
    "after %s: a provider without idempotency waits %s ms, one with it %s ms (undefined: no retry)",
    (_, failure, without, withIt) => {
      expect(waitBeforeRetry(failure, rule(false), 1)).toBe(without);
      expect(waitBeforeRetry(failure, rule(true), 1)).toBe(withIt);
    },
  );

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const inTwoSeconds = new Date(Date.now() + 2_500).toUTCString();
    const failure = failureOfAnswer(429, inTwoSeconds, "429");
    expect(failure.outcome === "not-taken" && failure.retryAfterMs).toBeGreaterThan(1_000);
    expect(failure.outcome === "not-taken" && failure.retryAfterMs).toBeLessThanOrEqual(2_500);
  });

  it("takes a refused connection as not taken (the request was never written), a timeout as maybe taken", async () => {
    const closed = await startFakeProvider(() => ({ status: 200 }));
    await closed.close();
    const refused = await fetch(closed.url).catch((error: unknown) => error);
    expect(failureOfNetwork(refused)).toEqual({ outcome: "not-taken", problem: "ECONNREFUSED" });
    expect(failureOfNetwork(new DOMException("timed out", "TimeoutError"))).toEqual({
      outcome: "maybe-taken",
      problem: "TimeoutError",
    });
  });

  it("tries at most SMS_HTTP_RETRIES times after the first, then fails with service.unavailable naming the problem", async () => {
    let attempts = 0;
    const send = sendWithRetries(
      async () => {
        attempts += 1;
        throw new Error("refused");
      },
      () => ({ outcome: "not-taken", problem: "provider answered 503" }),
      rule(false),
    );
    const error = await failureOf(send);
    expect(attempts).toBe(3);
    expect(error.code).toBe("service.unavailable");
    expect(error.message).toBe("SMS not sent: provider answered 503");
  });
});
