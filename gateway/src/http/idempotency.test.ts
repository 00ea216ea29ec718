import { AuthError } from "@auth/errors";
import { MemoryKeyValueStore } from "@auth/kv";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { IdempotentAnswers, idempotencyKeyOf, isDefinitive, nameRequest } from "./idempotency.js";

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

describe("idempotent answers", () => {
  it("runs the first request, and replays its definitive answer to the next, sealed in the store", async () => {
    const store = new MemoryKeyValueStore();
    const answers = new IdempotentAnswers(store, 60_000);
    expect(await answers.start(named, inAMinute())).toEqual({ run: true });
    await answers.finish(named, success, true);
    expect(await answers.start(named, inAMinute())).toEqual({ run: false, answer: success });
    expect(await store.get(named.storeKey)).not.toContain(success.body.session_token);
  });

  it("refuses the same key with another body with request.validation.failed (422)", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    await answers.start(named, inAMinute());
    const otherBody = nameRequest("c1", "setpassword", token, "key-1", Buffer.from("{}"));
    expect(await codeOf(answers.start(otherBody, inAMinute()))).toBe("request.validation.failed 422");
    await answers.finish(named, success, true);
    expect(await codeOf(answers.start(otherBody, inAMinute()))).toBe("request.validation.failed 422");
  });

  it("runs a request again after one that got no definitive answer", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    await answers.start(named, inAMinute());
    await answers.finish(named, { status: 503, body: {} }, false);
    expect(await answers.start(named, inAMinute())).toEqual({ run: true });
  });

  it("makes a second request wait for the first's answer, and answers service.unavailable past its deadline", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    await answers.start(named, inAMinute());
    expect(await codeOf(answers.start(named, Date.now() + 100))).toBe("service.unavailable 503");
    const waiting = answers.start(named, inAMinute());
    await answers.finish(named, success, true);
    expect(await waiting).toEqual({ run: false, answer: success });
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
    expect(await answers.earlier(named, inAMinute())).toBeUndefined();
    expect(store.written).toEqual([]);
  });

  it("finds the answer kept, refuses another body with 422, and waits for a request still under way", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    await answers.start(named, inAMinute());
    expect(await codeOf(answers.earlier(named, Date.now() + 100))).toBe("service.unavailable 503");
    const waiting = answers.earlier(named, inAMinute());
    await answers.finish(named, success, true);
    expect(await waiting).toEqual(success);
    const otherBody = nameRequest("c1", "setpassword", token, "key-1", Buffer.from("{}"));
    expect(await codeOf(answers.earlier(otherBody, inAMinute()))).toBe("request.validation.failed 422");
  });

  it("finds nothing after a request that got no definitive answer: the next one runs", async () => {
    const answers = new IdempotentAnswers(new MemoryKeyValueStore(), 60_000);
    await answers.start(named, inAMinute());
    await answers.finish(named, { status: 503, body: {} }, false);
    expect(await answers.earlier(named, inAMinute())).toBeUndefined();
  });
});
