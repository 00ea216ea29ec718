import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { AuthError } from "@auth/errors";
import { type KeyValueStore, MemoryKeyValueStore, RedisKeyValueStore } from "@auth/kv";
import type { Logger } from "@auth/runtime";
import type { Request, Response } from "express";
import type { Cluster, Redis } from "ioredis";
import type { Operation } from "../endpoint/transitions.js";
import { bearerTokenOf } from "./credentials.js";

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
/** An entry whose request stopped without answering (the process died) frees its key after its deadline and this. */
const runningGraceMs = 1_000;

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
  const derive = (purpose: string) => Buffer.from(hkdfSync("sha256", token, "", purpose, 32));
  const macKey = derive("idempotency-key names");
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
    sealingKey: derive("idempotency-key answers"),
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
  /** A request with the key is under way. */
  running?: boolean;
  /** Its definitive answer, sealed. */
  answer?: string;
}

function seal(key: Buffer, answer: Answer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(answer)), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
}

function unseal(key: Buffer, sealed: string): Answer {
  const raw = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString());
}

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

const unavailable = (error: unknown): never => {
  throw new AnswersUnavailable("idempotent answers unavailable", { cause: error });
};

/**
 * The answers of requests with an Idempotency-Key, in the gateway's Redis when it has one (shared
 * by the replicas) or in its own memory.
 */
export class IdempotentAnswers {
  constructor(
    private readonly store: KeyValueStore,
    private readonly lifetimeMs: number,
  ) {}

  /** In the gateway's Redis when it has one, so that a retry may reach any replica; else in the process. */
  static on(redis: Redis | Cluster | undefined): IdempotentAnswers {
    return redis
      ? new IdempotentAnswers(new RedisKeyValueStore(redis), answerLifetimeMs.redis)
      : new IdempotentAnswers(new MemoryKeyValueStore(), answerLifetimeMs.memory);
  }

  /**
   * The definitive answer an earlier request with this key, token and body got, or undefined: reads
   * only, so that it may come before the token is checked (a retry whose first try ended the token
   * still gets its answer). While an earlier one is still under way it waits for its answer, until the
   * deadline: then service.unavailable. The same key with another body is request.validation.failed (422).
   */
  async earlier(request: NamedRequest, deadline: number): Promise<Answer | undefined> {
    for (;;) {
      const raw = await this.store.get(request.storeKey).catch(unavailable);
      if (raw === null) return undefined;
      const entry = JSON.parse(raw) as Entry;
      checkBody(request, entry);
      if (entry.answer !== undefined) return unseal(request.sealingKey, entry.answer);
      // An earlier request with the key failed without a definitive answer: this one runs again.
      if (!entry.running) return undefined;
      await waitOrGiveUp(deadline);
    }
  }

  /**
   * Takes the key for this request (run it), or finds the answer an earlier request with it got.
   * While an earlier one is still under way it waits, until the deadline: then service.unavailable.
   * The same key with another body is request.validation.failed (422).
   */
  async start(request: NamedRequest, deadline: number): Promise<Start> {
    const running = JSON.stringify({ fingerprint: request.fingerprint, running: true } satisfies Entry);
    const runningMs = () => Math.max(0, deadline - Date.now()) + runningGraceMs;
    for (;;) {
      if (await this.store.setIfAbsent(request.storeKey, running, runningMs()).catch(unavailable)) {
        return { run: true };
      }
      const raw = await this.store.get(request.storeKey).catch(unavailable);
      if (raw === null) continue;
      const entry = JSON.parse(raw) as Entry;
      checkBody(request, entry);
      if (entry.answer !== undefined) return { run: false, answer: unseal(request.sealingKey, entry.answer) };
      // An earlier request with the key failed without a definitive answer: this one runs again.
      const taken =
        !entry.running &&
        (await this.store.compareAndSet(request.storeKey, raw, running, runningMs()).catch(unavailable));
      if (taken) {
        return { run: true };
      }
      await waitOrGiveUp(deadline);
    }
  }

  /** Keeps a definitive answer for its retries; otherwise frees the key, remembering the body. */
  async finish(request: NamedRequest, answer: Answer, definitive: boolean): Promise<void> {
    const entry: Entry = definitive
      ? { fingerprint: request.fingerprint, answer: seal(request.sealingKey, answer) }
      : { fingerprint: request.fingerprint };
    await this.store.set(request.storeKey, JSON.stringify(entry), this.lifetimeMs);
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
export async function replayed(
  answers: IdempotentAnswers,
  named: NamedRequest,
  response: Response,
  logger: Logger,
): Promise<boolean> {
  try {
    const answer = await answers.earlier(named, response.locals.deadline);
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
export async function taken(
  answers: IdempotentAnswers,
  named: NamedRequest,
  response: Response,
  logger: Logger,
): Promise<boolean> {
  let started: Start;
  try {
    started = await answers.start(named, response.locals.deadline);
  } catch (error) {
    return runsWithout(error, logger);
  }
  if (!started.run) return replay(response, started.answer);
  const send = response.json.bind(response);
  response.json = (sent: Record<string, unknown>) => {
    const answer: Answer = { status: response.statusCode, body: sent };
    answers
      .finish(named, answer, isDefinitive(answer, response.getHeader("retry-after")))
      .catch((error: unknown) => logger.warn({ err: error }, "an idempotent answer was not kept"));
    return send(sent);
  };
  return false;
}
