import type { OutboxEntry } from "@auth/kv";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { ExponentialBackoff, fullJitterGenerator, handleAll, retry } from "cockatiel";
import type { EventSource } from "./catalogue.js";
import { eventFromJson } from "./event.js";
import { pacing } from "./pacing.js";
import type { EventSink, RelayedEvent } from "./sink.js";

/**
 * A service's outbox, as the relay reads it. Of several replicas relaying the same outbox, one
 * at a time hands out batches (a lease in the store): the others get none meanwhile.
 */
export interface OutboxSource {
  /**
   * Hands the oldest entries, up to `count` and oldest first, to `publish`, and drops them from
   * the outbox once it has resolved; when it throws, they stay. Resolves with how many it handed
   * out: 0 when the outbox is empty or another replica holds the lease.
   */
  relayBatch(count: number, publish: (entries: readonly OutboxEntry[]) => Promise<void>): Promise<number>;
  /** Gives the lease up, so that another replica relays at once rather than when it ends. */
  release?(): Promise<void>;
}

export interface RelayOptions {
  /** The service whose outbox this is: the `source` of the metrics and the log lines. */
  service: EventSource;
  source: OutboxSource;
  sink: EventSink;
  logger: Logger;
  /** Resolves once the store answers (`ready` of the opened store): the relay starts reading then. */
  ready?: Promise<void>;
  /** The most entries published (and dropped) together. */
  batchSize?: number;
  /** Milliseconds between two reads of an outbox that had entries, or after a `wake`. */
  pollMs?: number;
  /** The longest wait between two reads of an outbox that stays empty (doubling from `pollMs`); `pollMs` when absent. */
  idlePollMs?: number;
  /** The longest wait before a failed batch is tried again (doubling from 100 ms, full jitter). */
  maxBackoffMs?: number;
}

export interface Relay {
  /** Stops after the batch under way (its entries published and dropped, or left for later). */
  stop(): Promise<void>;
  /** The process may have written to the outbox: the relay reads it within `pollMs`. */
  wake(): void;
}

/** An error's message and its causes' (a failed query's says why only in its cause). */
const messageOf = (error: unknown): string =>
  error instanceof Error
    ? error.cause === undefined
      ? error.message
      : `${error.message}: ${messageOf(error.cause)}`
    : String(error);

/** The entry as the sinks take it; undefined when it is no event (nothing the services write). */
function relayedEventOf(entry: OutboxEntry): RelayedEvent | undefined {
  try {
    const { id, source, type, time } = eventFromJson(entry.payload);
    return id && source && type && time ? { id, source, type, time, json: entry.payload } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Publishes the service's outbox to the sink, oldest first, a batch at a time, dropping each batch
 * only once the sink has acknowledged all of it: at least once, in commit order (docs/decisions.md,
 * "Security events"). A batch that fails (sink or store) is tried again after a growing, jittered
 * wait; the log lines name the error, never an event.
 */
export function startRelay(options: RelayOptions): Relay {
  const { service, source, sink, logger } = options;
  const batchSize = options.batchSize ?? 100;
  const stopping = new AbortController();
  const pollMs = options.pollMs ?? 200;
  const pace = pacing(pollMs, options.idlePollMs ?? pollMs, stopping.signal);
  let failing = false;

  const retrying = retry(handleAll, {
    maxAttempts: Number.POSITIVE_INFINITY,
    backoff: new ExponentialBackoff({
      generator: fullJitterGenerator,
      initialDelay: 100,
      maxDelay: options.maxBackoffMs ?? 10_000,
    }),
  });
  retrying.onRetry((failure) => {
    if (!("error" in failure)) return;
    failing = true;
    metrics.eventsRelayFailures.inc({ source: service });
    logger.warn(
      {
        source: service,
        error: messageOf(failure.error),
        attempt: failure.attempt,
        retryInMs: failure.delay,
      },
      "security events not relayed, retrying",
    );
  });

  /** One batch; resolves with how many entries left the outbox. */
  async function relayBatch(): Promise<number> {
    let published: RelayedEvent[] = [];
    let acknowledgedAt = 0;
    const count = await source.relayBatch(batchSize, async (entries) => {
      const events = entries.map(relayedEventOf);
      published = events.filter((event) => event !== undefined);
      await sink.publish(published);
      acknowledgedAt = Date.now();
      const malformed = events.length - published.length;
      if (malformed > 0) {
        metrics.eventsRelayed.inc({ source: service, outcome: "malformed" }, malformed);
        logger.error({ source: service, malformed }, "outbox entries that are no event dropped");
      }
    });
    if (published.length > 0) {
      metrics.eventsRelayed.inc({ source: service, outcome: "published" }, published.length);
      for (const event of published) {
        metrics.eventsRelayDelay.observe({ source: service }, (acknowledgedAt - event.time.getTime()) / 1000);
      }
    }
    if (failing) {
      failing = false;
      logger.info({ source: service }, "security events relayed again");
    }
    return count;
  }

  const stopped = new Promise<void>((resolve) =>
    stopping.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  const running = (async () => {
    await Promise.race([options.ready, stopped]);
    while (!stopping.signal.aborted) {
      try {
        const count = await retrying.execute(relayBatch, stopping.signal);
        if (count < batchSize) await pace.wait(count > 0);
      } catch (error) {
        // Only a stop ends the retries' waits (they never give up).
        if (!stopping.signal.aborted) throw error;
      }
    }
    await source.release?.().catch((error: unknown) => {
      logger.warn({ source: service, error: messageOf(error) }, "relay lease not released");
    });
  })();
  running.catch((error: unknown) => {
    logger.error({ source: service, error: messageOf(error) }, "security events relay stopped");
  });

  return {
    async stop() {
      stopping.abort();
      await running.catch(() => {});
    },
    wake: () => pace.wake(),
  };
}
