import { setTimeout as sleep } from "node:timers/promises";
import { AuthError } from "@auth/errors";
import { connectRedis, type KeyValueStore, MemoryKeyValueStore } from "@auth/kv";
import { deleteKeys } from "@auth/kv/testing";
import { tcpGate, testBudgets } from "@auth/testing";
import type { Request } from "express";
import { afterEach, describe, expect, it } from "vitest";
import {
  IdempotentAnswers,
  idempotencyKeyOf,
  isDefinitive,
  nameRequest,
  storePatienceMs,
} from "./idempotency.js";
import { beatMs, holderSilentMs, SilenceWatch } from "./key-holder.js";

const token = "t".repeat(64);
const body = Buffer.from('{"new_password":"a-new-password-1"}');
const named = nameRequest("c1", "setpassword", token, "key-1", body);
const success = { status: 200, body: { status: "success", session_token: "n".repeat(64) } };
const inAMinute = () => Date.now() + 60_000;

function withHeader(value: string | undefined): Request {
  return { get: () => value } as unknown as Request;
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof AuthError ? `${error.code} ${error.httpStatus}` : String(error)),
  );

describe("the Idempotency-Key header", () => {
  it("is 1 to 255 visible ASCII characters", () => {
    expect(idempotencyKeyOf(withHeader(undefined))).toBeUndefined();
    expect(idempotencyKeyOf(withHeader("6f1c6a4e-2d0b-4a4e-9a53-0c1f3e2b9d10"))).toBe(
      "6f1c6a4e-2d0b-4a4e-9a53-0c1f3e2b9d10",
    );
    for (const bad of ["", "with space", "x".repeat(256), "caf\u00e9", "tab\there"]) {
      expect(() => idempotencyKeyOf(withHeader(bad)), JSON.stringify(bad)).toThrow(AuthError);
    }
  });
});

describe("a request's names", () => {
  it("depend on the company, the operation, the token, the key and the body, and hold neither the token nor the key", () => {
    expect(nameRequest("c1", "setpassword", token, "key-1", body)).toEqual(named);
    expect(nameRequest("c1", "setpassword", "u".repeat(64), "key-1", body).storeKey).not.toBe(named.storeKey);
    expect(nameRequest("c1", "logout", token, "key-1", body).storeKey).not.toBe(named.storeKey);
    expect(nameRequest("c2", "setpassword", token, "key-1", body).storeKey).not.toBe(named.storeKey);
    expect(nameRequest("c1", "setpassword", token, "key-2", body).storeKey).not.toBe(named.storeKey);
    const otherBody = nameRequest("c1", "setpassword", token, "key-1", Buffer.from("{}"));
    expect(otherBody.storeKey).toBe(named.storeKey);
    expect(otherBody.fingerprint).not.toBe(named.fingerprint);
    expect(otherBody.retryKey).not.toBe(named.retryKey);
    expect(JSON.stringify(named)).not.toContain(token);
    expect(JSON.stringify(named)).not.toContain("key-1");
  });
});

describe("which answers are replayed", () => {
  it("successes and refusals; not 429, 5xx or an answer with Retry-After", () => {
    expect(isDefinitive(success, undefined)).toBe(true);
    expect(isDefinitive({ status: 401, body: {} }, undefined)).toBe(true);
    expect(isDefinitive({ status: 422, body: {} }, undefined)).toBe(true);
    expect(isDefinitive({ status: 429, body: {} }, "3")).toBe(false);
    expect(isDefinitive({ status: 403, body: {} }, "60")).toBe(false);
    expect(isDefinitive({ status: 503, body: {} }, undefined)).toBe(false);
    expect(isDefinitive({ status: 500, body: {} }, undefined)).toBe(false);
  });
});

/**
 * A store the gateways share, as one gateway sees it: while the gateway is stopped (SIGSTOP) its
 * calls wait, and are made when it goes on; a gateway that died never makes them.
 */
function gatewayView(shared: KeyValueStore) {
  let stopped = false;
  const waiting: Array<() => void> = [];
  const store = new Proxy(shared, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (stopped) await new Promise<void>((resolve) => waiting.push(resolve));
        return value.apply(target, args);
      };
    },
  });
  return {
    store,
    stop: () => {
      stopped = true;
    },
    goOn: () => {
      stopped = false;
      for (const resume of waiting.splice(0)) resume();
    },
  };
}

/** A request's time with its key: from start() to the answer it was given. */
async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work;
  return { result, ms: performance.now() - started };
}

describe("idempotent answers", () => {
  it("runs the first request, and replays its definitive answer to the next, sealed in the store", async () => {
    const store = new MemoryKeyValueStore();
    const answers = new IdempotentAnswers(store, 60_000);
    const first = answers.attempt(named, inAMinute());
    expect(await first.start()).toEqual({ run: true });
    await first.finish(success, true);
    expect(await answers.attempt(named, inAMinute()).start()).toEqual({ run: false, answer: success });
    expect(await store.get(named.storeKey)).not.toContain(success.body.session_token);
  });

  it("refuses the same key with another body with request.validation.failed (422)", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    const otherBody = nameRequest("c1", "setpassword", token, "key-1", Buffer.from("{}"));
    expect(await codeOf(answers.attempt(otherBody, inAMinute()).start())).toBe(
      "request.validation.failed 422",
    );
    await first.finish(success, true);
    expect(await codeOf(answers.attempt(otherBody, inAMinute()).start())).toBe(
      "request.validation.failed 422",
    );
  });

  it("runs a request again after one that got no definitive answer", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    await first.finish({ status: 503, body: {} }, false);
    expect(await answers.attempt(named, inAMinute()).start()).toEqual({ run: true });
  });

  it("makes a second request wait for the first's answer, and answers service.unavailable past its deadline", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    expect(await codeOf(answers.attempt(named, Date.now() + 100).start())).toBe("service.unavailable 503");
    const waiting = answers.attempt(named, inAMinute()).start();
    await first.finish(success, true);
    expect(await waiting).toEqual({ run: false, answer: success });
  });
});

describe("a key whose holder can no longer answer", () => {
  it("is taken over by a retry once the holder has been silent for holderSilentMs (its gateway died), and the retry's answer is kept", async () => {
    const shared = new MemoryKeyValueStore();
    const dying = gatewayView(shared);
    const first = new IdempotentAnswers(dying.store, 60_000).attempt(named, inAMinute());
    expect(await first.start()).toEqual({ run: true });
    dying.stop();
    const other = new IdempotentAnswers(shared, 60_000);
    const retry = other.attempt(named, inAMinute());
    const { result, ms } = await timed(retry.start());
    console.log(`a retry took over the key of a holder that died in ${Math.round(ms)} ms`);
    expect(result).toEqual({ run: true });
    expect(ms).toBeGreaterThanOrEqual(holderSilentMs - beatMs);
    expect(ms).toBeLessThan(holderSilentMs + 1_000);
    await retry.finish(success, true);
    expect(await other.attempt(named, inAMinute()).earlier()).toEqual(success);
  });

  it("is found free by a retry's read before its token is checked, which then takes it at once", async () => {
    const shared = new MemoryKeyValueStore();
    const dying = gatewayView(shared);
    await new IdempotentAnswers(dying.store, 60_000).attempt(named, inAMinute()).start();
    dying.stop();
    const retry = new IdempotentAnswers(shared, 60_000).attempt(named, inAMinute());
    expect(await retry.earlier()).toBeUndefined();
    const { result, ms } = await timed(retry.start());
    expect(result).toEqual({ run: true });
    expect(ms).toBeLessThan(holderSilentMs);
  });

  it("is taken over once the holder's deadline passed without an answer", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const deadline = Date.now() + 200;
    await answers.attempt(named, deadline).start();
    const { result } = await timed(answers.attempt(named, inAMinute()).start());
    expect(result).toEqual({ run: true });
    expect(Date.now() - deadline).toBeLessThan(holderSilentMs + 1_000);
  });

  it("stays with a holder that beats, however long it runs: the retry waits for its answer", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    const waiting = answers.attempt(named, inAMinute()).start();
    await sleep(3 * holderSilentMs);
    await first.finish(success, true);
    expect(await waiting).toEqual({ run: false, answer: success });
  });

  it("stays with a holder whose process, the retry's own, did not run for longer than holderSilentMs", async () => {
    const store = new MemoryKeyValueStore();
    const answers = new IdempotentAnswers(store, 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    const waiting = answers.attempt(named, inAMinute()).start();
    // Right after a beat, so that the retry's next read is due before the holder's next beat.
    const before = await store.get(named.storeKey);
    while ((await store.get(named.storeKey)) === before) await sleep(2);
    // The process is held up (a long pause, a starved machine): neither beats nor reads run.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2 * holderSilentMs);
    await sleep(2 * beatMs);
    await first.finish(success, true);
    expect(await waiting).toEqual({ run: false, answer: success });
  });

  it("is not given back to a holder that was taken over: its late answer does not replace the retry's", async () => {
    const shared = new MemoryKeyValueStore();
    const stalled = gatewayView(shared);
    const first = new IdempotentAnswers(stalled.store, 60_000).attempt(named, inAMinute());
    await first.start();
    stalled.stop();
    const answers = new IdempotentAnswers(shared, 60_000);
    const retry = answers.attempt(named, inAMinute());
    expect(await retry.start()).toEqual({ run: true });
    await retry.finish(success, true);
    // The first goes on (its gateway had only stopped) and answers 503: the retry's success stays.
    stalled.goOn();
    await first.finish({ status: 503, body: {} }, false);
    expect(await answers.attempt(named, inAMinute()).earlier()).toEqual(success);
  });
});

describe("reading an earlier answer, before the token is checked", () => {
  /** A store that tells which keys were written. */
  class WatchedStore extends MemoryKeyValueStore {
    readonly written: string[] = [];
    override async set(key: string, value: string, ttlMs: number) {
      this.written.push(key);
      return super.set(key, value, ttlMs);
    }
    override async setIfAbsent(key: string, value: string, ttlMs: number) {
      this.written.push(key);
      return super.setIfAbsent(key, value, ttlMs);
    }
    override async compareAndSet(key: string, expected: string, next: string | null, ttlMs: number) {
      this.written.push(key);
      return super.compareAndSet(key, expected, next, ttlMs);
    }
  }

  it("finds nothing for a key no request took, and writes nothing", async () => {
    const store = new WatchedStore();
    const answers = new IdempotentAnswers(store, 60_000);
    expect(await answers.attempt(named, inAMinute()).earlier()).toBeUndefined();
    expect(store.written).toEqual([]);
  });

  it("finds the answer kept, refuses another body with 422, and waits for a request still under way", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    expect(await codeOf(answers.attempt(named, Date.now() + 100).earlier())).toBe("service.unavailable 503");
    const waiting = answers.attempt(named, inAMinute()).earlier();
    await first.finish(success, true);
    expect(await waiting).toEqual(success);
    const otherBody = nameRequest("c1", "setpassword", token, "key-1", Buffer.from("{}"));
    expect(await codeOf(answers.attempt(otherBody, inAMinute()).earlier())).toBe(
      "request.validation.failed 422",
    );
  });

  it("finds nothing after a request that got no definitive answer: the next one runs", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    await first.finish({ status: 503, body: {} }, false);
    expect(await answers.attempt(named, inAMinute()).earlier()).toBeUndefined();
  });
});

describe("a retry's count of the holder's silence", () => {
  /** A retry reading the entry every 25 ms from `from` (ms) to `to`, each read answered in 5 ms: whether the last found the holder gone. */
  function reads(watch: SilenceWatch, raw: string, from: number, to: number, answerMs = 5): boolean {
    let gone = false;
    for (let sentAt = from; sentAt <= to; sentAt += 25)
      gone = watch.silent({ value: raw, sentAt, answeredAt: sentAt + answerMs });
    return gone;
  }

  it("runs from the first read that found the entry as it is, and ends the holder at holderSilentMs", () => {
    const watch = new SilenceWatch();
    expect(reads(watch, "beat 1", 0, holderSilentMs)).toBe(false);
    expect(reads(watch, "beat 1", holderSilentMs + 25, holderSilentMs + 25)).toBe(true);
  });

  it("starts again at a beat", () => {
    const watch = new SilenceWatch();
    expect(reads(watch, "beat 1", 0, 600)).toBe(false);
    expect(reads(watch, "beat 2", 625, 625 + holderSilentMs)).toBe(false);
    expect(reads(watch, "beat 2", 650 + holderSilentMs, 650 + holderSilentMs)).toBe(true);
  });

  it("starts again at a read answered late, or sent late (the store or the retry's own process was held up, and the holder's beats may have been)", () => {
    const lateAnswer = new SilenceWatch();
    reads(lateAnswer, "beat 1", 0, 500);
    // Answered at 1,525: the count starts there.
    expect(lateAnswer.silent({ value: "beat 1", sentAt: 525, answeredAt: 1_525 })).toBe(false);
    expect(reads(lateAnswer, "beat 1", 1_550, 1_525 + holderSilentMs - 25)).toBe(false);
    expect(reads(lateAnswer, "beat 1", 1_525 + holderSilentMs, 1_525 + holderSilentMs)).toBe(true);
    const lateSend = new SilenceWatch();
    reads(lateSend, "beat 1", 0, 500);
    // Sent a second after the read before it answered, answered at 1,505: the count starts there.
    expect(reads(lateSend, "beat 1", 1_500, 1_505 + holderSilentMs - 25)).toBe(false);
    expect(reads(lateSend, "beat 1", 1_505 + holderSilentMs, 1_505 + holderSilentMs)).toBe(true);
  });

  it("keeps a holder it found gone gone, however late the next read of the same entry (the retry's token was checked meanwhile)", () => {
    const watch = new SilenceWatch();
    expect(reads(watch, "beat 1", 0, holderSilentMs + 25)).toBe(true);
    expect(reads(watch, "beat 1", 5_000, 5_000)).toBe(true);
    expect(reads(watch, "beat 2", 5_025, 5_025)).toBe(false);
  });
});

describe("a store of answers whose replies are late", () => {
  /** A store whose next calls of `operation` fail as a timed-out command does: made, but unanswered. */
  function lateStore(operation: "get" | "setIfAbsent") {
    const store = new MemoryKeyValueStore();
    let late = 0;
    const made = store[operation].bind(store) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(store, {
      [operation]: async (...args: unknown[]) => {
        const result = await made(...args);
        if (late > 0) {
          late -= 1;
          throw new AuthError("service.unavailable", { detail: "Command timed out" });
        }
        return result;
      },
    });
    return Object.assign(store, {
      replyLate: (times: number) => {
        late = times;
      },
    });
  }

  it("is asked again while the connection stands: a retry gets the kept answer", async () => {
    const store = lateStore("get");
    const answers = new IdempotentAnswers(store, 60_000, () => true);
    const first = answers.attempt(named, inAMinute());
    await first.start();
    await first.finish(success, true);
    store.replyLate(2);
    expect(await answers.attempt(named, inAMinute()).earlier()).toEqual(success);
  });

  it("finds its own entry when the reply to taking the key was lost: it runs, and does not wait for itself", async () => {
    const store = lateStore("setIfAbsent");
    store.replyLate(1);
    const answers = new IdempotentAnswers(store, 60_000, () => true);
    const attempt = answers.attempt(named, inAMinute());
    const { result, ms } = await timed(attempt.start());
    expect(result).toEqual({ run: true });
    expect(ms).toBeLessThan(holderSilentMs);
    await attempt.finish(success, true);
    expect(await answers.attempt(named, inAMinute()).start()).toEqual({ run: false, answer: success });
  });

  it("is not waited for while the connection is down: the request runs without it at once", async () => {
    const store = lateStore("get");
    store.replyLate(1);
    const answers = new IdempotentAnswers(store, 60_000, () => false);
    const { result, ms } = await timed(
      answers
        .attempt(named, inAMinute())
        .earlier()
        .catch((error: Error) => error.message),
    );
    expect(result).toBe("idempotent answers unavailable");
    expect(ms).toBeLessThan(storePatienceMs);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)("idempotent answers in a Redis that stalls", () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? "";
  const keyPrefix = `test:gateway-idempotency:${process.pid}:${Date.now()}:`;
  /** The product's default REDIS_COMMAND_TIMEOUT_MS. */
  const commandTimeoutMs = 1_000;
  /** Longer than a command's timeout, well within the store's patience. */
  const stallMs = 1_500;
  const cleanUps: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });

  /** The store of answers on Redis behind a gate (packages/testing, tcp-gate.ts) that may hold its replies back. */
  async function throughGate() {
    const gate = await tcpGate({
      host: new URL(redisUrl).hostname,
      port: Number(new URL(redisUrl).port || 6379),
    });
    await gate.open("through");
    const redis = await connectRedis(
      { kind: "standalone", url: `redis://127.0.0.1:${gate.port}` },
      { keyPrefix, commandTimeoutMs },
    );
    cleanUps.push(async () => {
      redis.disconnect();
      await gate.close();
      await deleteKeys(redisUrl, keyPrefix);
    });
    return { gate, redis, answers: IdempotentAnswers.on(redis) };
  }

  /** Holds Redis's replies back for stallMs from now. */
  function stall(gate: Awaited<ReturnType<typeof throughGate>>["gate"]): void {
    gate.hold();
    setTimeout(() => gate.release(), stallMs);
  }

  it("replays the kept answer to a retry that comes during a stall longer than a command's timeout", {
    timeout: testBudgets.testMs,
  }, async () => {
    const { gate, answers } = await throughGate();
    const first = answers.attempt(named, inAMinute());
    await first.start();
    await first.finish(success, true);
    stall(gate);
    const { result, ms } = await timed(answers.attempt(named, inAMinute()).earlier());
    console.log(
      `a retry's read of its answer through a stall of ${stallMs} ms: answered in ${Math.round(ms)} ms`,
    );
    expect(result).toEqual(success);
    expect(ms).toBeGreaterThanOrEqual(commandTimeoutMs);
  });

  it("takes the key during a stall, knowing its own entry when the reply comes late", {
    timeout: testBudgets.testMs,
  }, async () => {
    const { gate, answers } = await throughGate();
    stall(gate);
    const attempt = answers.attempt(named, inAMinute());
    const { result, ms } = await timed(attempt.start());
    expect(result).toEqual({ run: true });
    expect(ms).toBeLessThan(stallMs + holderSilentMs / 2);
    const waiting = answers.attempt(named, inAMinute()).start();
    await attempt.finish(success, true);
    expect(await waiting).toEqual({ run: false, answer: success });
  });

  it("runs without the store at once when the connection is down", {
    timeout: testBudgets.testMs,
  }, async () => {
    const { redis, answers } = await throughGate();
    redis.disconnect();
    const { result, ms } = await timed(
      answers
        .attempt(named, inAMinute())
        .earlier()
        .catch((error: Error) => error.message),
    );
    expect(result).toBe("idempotent answers unavailable");
    expect(ms).toBeLessThan(commandTimeoutMs);
  });
});
