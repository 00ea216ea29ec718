import type { AuditStore, StoreOutcome } from "../store/audit-store.js";

/** What a feed stores the events it reads with. */
export type EventWriter = Pick<AuditStore, "storeEvents">;

/** Options every feed takes. */
export interface FeedOptions {
  writer: EventWriter;
  /** Resolves once the database answers: the feed reads from then on. */
  ready?: Promise<void>;
  /** Called after each batch committed (to wake the webhooks' sender when deliveries were made). */
  afterStore?: (outcome: StoreOutcome) => void;
  /** The longest wait before a failed batch is tried again (doubling from 100 ms, full jitter). */
  maxBackoffMs?: number;
}

/** The events read from the stream into the store, a batch at a time. */
export interface Feed {
  /** Stops after the batch under way (stored and acknowledged, or left to be read again). */
  stop(): Promise<void>;
}

/** An error's message and its causes' (a failed query's says why only in its cause). */
export const messageOf = (error: unknown): string =>
  error instanceof Error
    ? error.cause === undefined
      ? error.message
      : `${error.message}: ${messageOf(error.cause)}`
    : String(error);

/** The wait before attempt `failures` + 1: full jitter under a bound doubling from 100 ms. */
export const backoffMs = (failures: number, maxMs: number) =>
  Math.random() * Math.min(maxMs, 100 * 2 ** Math.min(failures, 20));
