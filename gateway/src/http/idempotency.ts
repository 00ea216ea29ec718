import { createHmac, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { AuthError } from "@auth/errors";
import {
  type KeyValueStore,
  keyFromToken,
  MemoryKeyValueStore,
  RedisKeyValueStore,
  seal,
  unseal,
} from "@auth/kv";
import type { Logger } from "@auth/runtime";
import type { Request, Response } from "express";
import type { Cluster, Redis } from "ioredis";
import type { Operation } from "../endpoint/transitions.js";
import { bearerTokenOf } from "./credentials.js";
import { beatMs, SilenceWatch, type TimedRead } from "./key-holder.js";

/**
 * The Idempotency-Key rules (docs/decisions.md, "Idempotency-Key"): a request that names itself
 * with the header gets, when it comes again with the same token and body, the answer it got the
 * first time; the change itself is made once by the service that owns it (the session's claim).
 */

/** The header, and its shape: 1 to 255 visible ASCII characters (a UUID fits). */
export const idempotencyHeader = "Idempotency-Key";
export const idempotencyKeyShape = /^[\x21-\x7e]{1,255}$/;

/** How long an answer is replayed: in Redis, a day; in the process, whose memory is small, 10 minutes. */
export const answerLifetimeMs = { redis: 24 * 60 * 60_000, memory: 10 * 60_000 } as const;
/** How often a request waits to see whether the one before it with its key has answered. */
const waitStepMs = 25;
/**
 * An entry whose request stopped without answering frees its key after its deadline and this,
 * should no retry come to take it over before (key-holder.ts).
 */
const runningGraceMs = 1_000;
/**
 * How long an operation on the store of answers is asked again while its connection stands but
 * its replies are late (Redis stalls): a hiccup does not switch replay off.
 */
export const storePatienceMs = 3_000;

/** The header's key; undefined without the header; request.validation.failed when malformed. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.get(idempotencyHeader);
  if (key === undefined) return undefined;
  if (!idempotencyKeyShape.test(key)) {
    throw new AuthError("request.validation.failed", {
      detail: `${idempotencyHeader} must be 1 to 255 visible ASCII characters`,
    });
  }
  return key;
}

/**
 * One request as its retries name it: everything is derived from the session token, so that the
 * store holds neither the token nor anything that could be checked against a guessed password
 * (the body's fingerprint is keyed by the token too).
 */
export interface NamedRequest {
  /** Where its answer is kept. */
  storeKey: string;
  /** Which body it had. */
  fingerprint: string;
  /** Names it to the service that owns the change (the session's claim): key and body together. */
  retryKey: string;
  /** Seals the answer, which may carry a new session token. */
  sealingKey: Buffer;
}

export function nameRequest(
  companyId: string,
  operation: Operation,
  token: string,
  key: string,
  body: Buffer,
): NamedRequest {
  const macKey = keyFromToken(token, "idempotency-key names");
  const mac = (...parts: (string | Buffer)[]) => {
    const hmac = createHmac("sha256", macKey);
    for (const part of parts) hmac.update(part).update("\0");
    return hmac.digest("base64url");
  };
  const fingerprint = mac("body", body);
  return {
    storeKey: `idempotency:${mac("store", companyId, operation, key)}`,
    fingerprint,
    retryKey: mac("retry", operation, key, fingerprint),
    sealingKey: keyFromToken(token, "idempotency-key answers"),
  };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Only a definitive answer is replayed: a success or a refusal of the request itself. Whatever asks
 * to come back later (429, Retry-After, 5xx) runs again; the owner of the change makes sure that a
 * retry does not make it twice.
 */
export function isDefinitive(answer: Answer, retryAfter: unknown): boolean {
  return answer.status < 500 && answer.status !== 429 && retryAfter === undefined;
}

interface Entry {
  fingerprint: string;
  /** The request under way with the key: which attempt holds it, and its beats (key-holder.ts). */
  running?: { holder: string; beat: number };
  /** Its definitive answer, sealed. */
  answer?: string;
}

const sealAnswer = (key: Buffer, answer: Answer): string => seal(key, JSON.stringify(answer));
const unsealAnswer = (key: Buffer, sealed: string): Answer => JSON.parse(unseal(key, sealed));

export type Start = { run: true } | { run: false; answer: Answer };

/** The same key with another body: 422 like a weak password, the request is well formed but cannot be what the key names. */
function checkBody(request: NamedRequest, entry: Entry): void {
  if (entry.fingerprint !== request.fingerprint) {
    throw new AuthError("request.validation.failed", {
      httpStatus: 422,
      detail: `${idempotencyHeader} used before with another body`,
    });
  }
}

/** Waits a step for the request under way with the key; service.unavailable when the deadline comes first. */
async function waitOrGiveUp(deadline: number): Promise<void> {
  if (Date.now() + waitStepMs >= deadline) {
    throw new AuthError("service.unavailable", {
      detail: `a request with the same ${idempotencyHeader} is still under way`,
    });
  }
  await sleep(waitStepMs);
}

/** The store of answers could not be asked (Redis away): the request runs without a replay. */
class AnswersUnavailable extends Error {}

/**
 * The answers of requests with an Idempotency-Key, in the gateway's Redis when it has one (shared
 * by the replicas) or in its own memory.
 */
export class IdempotentAnswers {
  /**
   * @param connected whether the store's connection stands: an operation that fails meanwhile (a
   * reply slower than REDIS_COMMAND_TIMEOUT_MS) is asked again, for up to `storePatienceMs`.
   */
  constructor(
    readonly store: KeyValueStore,
    readonly lifetimeMs: number,
    readonly connected: () => boolean = () => false,
  ) {}

  /** In the gateway's Redis when it has one, so that a retry may reach any replica; else in the process. */
  static on(redis: Redis | Cluster | undefined): IdempotentAnswers {
    return redis
      ? new IdempotentAnswers(
          new RedisKeyValueStore(redis),
          answerLifetimeMs.redis,
          () => redis.status === "ready",
        )
      : new IdempotentAnswers(new MemoryKeyValueStore(), answerLifetimeMs.memory);
  }

  /** One request with a key, answered by `deadline`: from reading an earlier answer to keeping its own. */
  attempt(request: NamedRequest, deadline: number): KeyedAttempt {
    return new KeyedAttempt(this, request, deadline);
  }
}

/**
 * One request with a key. While it holds the key it beats (key-holder.ts); a request that finds the
 * key held waits for the holder's answer, or takes the key once the holder has fallen silent.
 */
export class KeyedAttempt {
  /** Names this attempt in the entry while it holds the key. */
  readonly #holder = randomBytes(12).toString("base64url");
  readonly #watch = new SilenceWatch();
  /** The entry as this attempt last wrote it while it holds the key. */
  #held: string | undefined;
  #beating: Promise<void> | undefined;
  readonly #finished = new AbortController();
  /** The store failed this request once: it runs without it from then on. */
  #unavailable = false;

  constructor(
    private readonly answers: IdempotentAnswers,
    readonly request: NamedRequest,
    private readonly deadline: number,
  ) {}

  /**
   * The definitive answer an earlier request with this key, token and body got, or undefined: reads
   * only, so that it may come before the token is checked (a retry whose first try ended the token
   * still gets its answer). While an earlier one is still under way it waits for its answer, until the
   * deadline (then service.unavailable), or until that one has fallen silent (then undefined: this one
   * runs). The same key with another body is request.validation.failed (422).
   */
  async earlier(): Promise<Answer | undefined> {
    for (;;) {
      const read = await this.#read();
      if (read.value === null) return undefined;
      const entry = this.#entryOf(read.value);
      if (entry.answer !== undefined) return unsealAnswer(this.request.sealingKey, entry.answer);
      // An earlier request with the key failed without a definitive answer, or can no longer answer.
      if (!entry.running || this.#watch.silent({ ...read, value: read.value })) return undefined;
      await waitOrGiveUp(this.deadline);
    }
  }

  /**
   * Takes the key for this request (run it, beating until finish), or finds the answer an earlier
   * request with it got. While an earlier one is still under way it waits, until the deadline (then
   * service.unavailable), or takes the key once that one has fallen silent. The same key with
   * another body is request.validation.failed (422).
   */
  async start(): Promise<Start> {
    const { storeKey } = this.request;
    const running = this.#entry({ running: { holder: this.#holder, beat: 0 } });
    for (;;) {
      const ttl = this.#runningMs();
      if (await this.#ask((store) => store.setIfAbsent(storeKey, running, ttl), this.deadline)) {
        return this.#hold(running);
      }
      const read = await this.#read();
      if (read.value === null) continue;
      const entry = this.#entryOf(read.value);
      if (entry.answer !== undefined)
        return { run: false, answer: unsealAnswer(this.request.sealingKey, entry.answer) };
      // This attempt's own write, whose reply a slow store lost.
      if (entry.running?.holder === this.#holder) return this.#hold(read.value);
      const free = !entry.running || this.#watch.silent({ ...read, value: read.value });
      if (!free) {
        await waitOrGiveUp(this.deadline);
        continue;
      }
      const expected = read.value;
      if (await this.#ask((store) => store.compareAndSet(storeKey, expected, running, ttl), this.deadline)) {
        return this.#hold(running);
      }
    }
  }

  /**
   * Keeps a definitive answer for its retries, otherwise frees the key remembering the body; only
   * while this attempt still holds the key (another that took it over keeps its own answer).
   */
  async finish(answer: Answer, definitive: boolean): Promise<void> {
    this.#finished.abort();
    await this.#beating;
    const final = this.#entry(definitive ? { answer: sealAnswer(this.request.sealingKey, answer) } : {});
    const { storeKey } = this.request;
    const { lifetimeMs } = this.answers;
    await this.#ask(async (store) => {
      for (;;) {
        const held = this.#held;
        if (held === undefined) return;
        if (await store.compareAndSet(storeKey, held, final, lifetimeMs)) return;
        const raw = await store.get(storeKey);
        // The key expired meanwhile: nobody holds it.
        if (raw === null && (await store.setIfAbsent(storeKey, final, lifetimeMs))) return;
        this.#held = raw !== null && this.#holds(raw) ? raw : undefined;
      }
    }, Number.POSITIVE_INFINITY);
  }

  #hold(raw: string): Start {
    this.#held = raw;
    this.#beating = this.#beat();
    return { run: true };
  }

  /** Rewrites the entry every beat until finish or the deadline, or until it is no longer this attempt's. */
  async #beat(): Promise<void> {
    const { store } = this.answers;
    const { storeKey } = this.request;
    const finished = this.#finished.signal;
    for (let beat = 1; ; beat += 1) {
      const stopped = await sleep(beatMs, false, { ref: false, signal: finished }).catch(() => true);
      const held = this.#held;
      if (stopped || held === undefined || Date.now() >= this.deadline) return;
      const next = this.#entry({ running: { holder: this.#holder, beat } });
      const swapped = await store
        .compareAndSet(storeKey, held, next, this.#runningMs())
        .catch(() => undefined);
      if (swapped) this.#held = next;
      else if (swapped === false) {
        // An earlier beat that failed may have been written all the same.
        const raw = await store.get(storeKey).catch(() => undefined);
        if (raw === null || (raw !== undefined && !this.#holds(raw))) {
          this.#held = undefined;
          return;
        }
        if (raw !== undefined) this.#held = raw;
      }
    }
  }

  #holds(raw: string): boolean {
    return (JSON.parse(raw) as Entry).running?.holder === this.#holder;
  }

  #entry(fields: Omit<Entry, "fingerprint">): string {
    return JSON.stringify({ fingerprint: this.request.fingerprint, ...fields } satisfies Entry);
  }

  #entryOf(raw: string): Entry {
    const entry = JSON.parse(raw) as Entry;
    checkBody(this.request, entry);
    return entry;
  }

  /** How long a running entry lives unless beaten: its holder's deadline and a grace. */
  #runningMs(): number {
    return Math.max(0, this.deadline - Date.now()) + runningGraceMs;
  }

  async #read(): Promise<TimedRead<string | null>> {
    const sentAt = performance.now();
    const value = await this.#ask((store) => store.get(this.request.storeKey), this.deadline);
    return { value, sentAt, answeredAt: performance.now() };
  }

  /**
   * One operation on the store, asked again while it fails with the connection standing (a slow
   * reply), for up to storePatienceMs and never past `until`; then, or at once when the connection
   * is down, AnswersUnavailable, and the request runs without the store from then on.
   */
  async #ask<T>(operation: (store: KeyValueStore) => Promise<T>, until: number): Promise<T> {
    const giveUpAt = Math.min(until, Date.now() + storePatienceMs);
    for (;;) {
      if (this.#unavailable) throw new AnswersUnavailable("idempotent answers unavailable");
      try {
        return await operation(this.answers.store);
      } catch (error) {
        if (!this.answers.connected() || Date.now() + waitStepMs >= giveUpAt) {
          this.#unavailable = true;
          throw new AnswersUnavailable("idempotent answers unavailable", { cause: error });
        }
        await sleep(waitStepMs);
      }
    }
  }
}

/**
 * The names of a request with an Idempotency-Key (after the API key is checked, its company in
 * `response.locals.company`), or undefined without the header; gives its flow the retry key
 * (`response.locals.retryKey`).
 */
export function keyedRequest(
  operation: Operation,
  request: Request,
  response: Response,
): NamedRequest | undefined {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return undefined;
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const named = nameRequest(response.locals.company.id, operation, bearerTokenOf(request), key, body);
  response.locals.retryKey = named.retryKey;
  return named;
}

function replay(response: Response, answer: Answer): true {
  response.setHeader("Idempotent-Replayed", "true");
  response.locals.errorCode = answer.body.error_code;
  response.status(answer.status).json(answer.body);
  return true;
}

/** Without the store the request still runs: the owner of the change keeps it to once. */
function runsWithout(error: unknown, logger: Logger): false {
  if (!(error instanceof AnswersUnavailable)) throw error;
  logger.warn({ err: error }, "idempotent answers unavailable; the request runs without them");
  return false;
}

/**
 * Answers the request with the answer an earlier request with the same key, token and body got
 * (true), reading the store only: this may come before the token is checked, and writes nothing
 * (docs/decisions.md, "Idempotency-Key").
 */
export async function replayed(attempt: KeyedAttempt, response: Response, logger: Logger): Promise<boolean> {
  try {
    const answer = await attempt.earlier();
    return answer !== undefined && replay(response, answer);
  } catch (error) {
    return runsWithout(error, logger);
  }
}

/**
 * Once the token is valid: takes the key for the request and keeps its answer once it is sent
 * (false: run it), or answers it with the answer of a request with the key that came meanwhile
 * (true). The only write to the store, so that nothing is kept for a request whose token is not valid.
 */
export async function taken(attempt: KeyedAttempt, response: Response, logger: Logger): Promise<boolean> {
  let started: Start;
  try {
    started = await attempt.start();
  } catch (error) {
    return runsWithout(error, logger);
  }
  if (!started.run) return replay(response, started.answer);
  const send = response.json.bind(response);
  response.json = (sent: Record<string, unknown>) => {
    const answer: Answer = { status: response.statusCode, body: sent };
    attempt
      .finish(answer, isDefinitive(answer, response.getHeader("retry-after")))
      .catch((error: unknown) => logger.warn({ err: error }, "an idempotent answer was not kept"));
    return send(sent);
  };
  return false;
}
