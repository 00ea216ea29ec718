import { setTimeout as sleep } from "node:timers/promises";
import { describeNats } from "@auth/events";
import { connectNatsInBackground, ensureEventStream, eventStream } from "@auth/events/nats";
import type { ConnectRetry, Logger } from "@auth/runtime";
import {
  AckPolicy,
  type Consumer,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from "@nats-io/jetstream";
import { type NatsConnection, nanos } from "@nats-io/transport-node";
import { backoffMs, type EventWriter, type Feed, type FeedOptions, messageOf } from "./feed.js";

export interface NatsFeedOptions extends FeedOptions {
  writer: EventWriter;
  /** NATS_URL. */
  url: string;
  /** NATS_CA_FILE, for a tls:// URL. */
  caFile?: string;
  /** NATS_STREAM_REPLICAS: the stream's replicas, should this process be the one to create it. */
  replicas: number;
  /** AUDIT_CONSUMER: the durable consumer the audit replicas share. */
  consumer: string;
  logger: Logger;
  /** The most messages stored (and acknowledged) together. */
  batchSize?: number;
  /** How long one pull waits for messages when the stream has none (at least 1000 ms). */
  pullWaitMs?: number;
  /** How long a message delivered and not acknowledged waits before it is delivered again. */
  ackWaitMs?: number;
  /** How the first connection is retried until NATS answers (later ones, forever, by the client). */
  connectRetry?: ConnectRetry;
}

/** The durable pull consumer of every event of the stream, each acknowledged explicitly; made when missing. */
async function ensureConsumer(manager: JetStreamManager, name: string, ackWaitMs: number): Promise<void> {
  try {
    await manager.consumers.info(eventStream.name, name);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound))
      throw error;
    await manager.consumers.add(eventStream.name, {
      durable_name: name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ackWaitMs),
    });
  }
}

/**
 * Reads the stream AUTH_EVENTS through the durable pull consumer the audit replicas share
 * (docs/decisions.md, "Audit trail and webhooks"): a batch is acknowledged only once the
 * transaction that stores it has committed; a batch that fails is given back (nak) and read
 * again, its events stored once by their ids. The first connection is made in the background,
 * attempt after attempt; the client reconnects by itself after that, and every failure (NATS
 * restarting, the consumer not there yet) is retried after a growing wait.
 */
export function startNatsFeed(options: NatsFeedOptions): Feed {
  const { writer, logger, url } = options;
  const batchSize = options.batchSize ?? 100;
  const pullWaitMs = options.pullWaitMs ?? 5_000;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const retry = options.connectRetry ?? { attemptTimeoutMs: 5_000, maxDelayMs: 5_000 };
  const where = describeNats(url);
  const stopping = new AbortController();
  const stopped = new Promise<void>((done) =>
    stopping.signal.addEventListener("abort", () => done(), { once: true }),
  );
  const nats = connectNatsInBackground({
    url,
    caFile: options.caFile,
    retry,
    logger,
    signal: stopping.signal,
  });

  /** The messages of one pull: up to a batch, fewer once the pull's wait is over or the feed stops. */
  async function pull(consumer: Consumer): Promise<JsMsg[]> {
    const messages = await consumer.fetch({ max_messages: batchSize, expires: pullWaitMs });
    const end = () => messages.stop();
    stopping.signal.addEventListener("abort", end, { once: true });
    // A pull the server never ends (a connection lost under it) is ended here.
    const deadline = setTimeout(() => messages.stop(new Error("the pull was not answered")), pullWaitMs * 3);
    const batch: JsMsg[] = [];
    try {
      for await (const message of messages) batch.push(message);
      return batch;
    } catch (error) {
      for (const message of batch) message.nak();
      throw error;
    } finally {
      clearTimeout(deadline);
      stopping.signal.removeEventListener("abort", end);
    }
  }

  /** Stores a batch and acknowledges it once committed; gives it back when the store failed. */
  async function storeBatch(nc: NatsConnection, batch: readonly JsMsg[]): Promise<void> {
    let outcome: Awaited<ReturnType<EventWriter["storeEvents"]>>;
    try {
      outcome = await writer.storeEvents(batch.map((message) => message.string()));
    } catch (error) {
      for (const message of batch) message.nak();
      throw error;
    }
    for (const message of batch) message.ack();
    // Acknowledgements NATS cannot take now (it is down) are not waited for beyond the ack wait:
    // their messages are delivered again, and their events dropped as copies.
    const waited = new AbortController();
    await Promise.race([
      nc.flush().catch(() => {}),
      sleep(ackWaitMs, undefined, { signal: waited.signal }).catch(() => {}),
    ]);
    waited.abort();
    options.afterStore?.(outcome);
  }

  const running = (async () => {
    await Promise.race([Promise.all([options.ready, nats.connected]), stopped]);
    let consumer: Consumer | undefined;
    let failures = 0;
    const connection = nats.current;
    while (!stopping.signal.aborted && connection) {
      try {
        if (!consumer) {
          const manager = await jetstreamManager(connection);
          await ensureEventStream(manager, options.replicas);
          await ensureConsumer(manager, options.consumer, ackWaitMs);
          consumer = await jetstream(connection).consumers.get(eventStream.name, options.consumer);
          logger.info(
            { events: where, consumer: options.consumer },
            "reading security events from NATS JetStream",
          );
        }
        const batch = await pull(consumer);
        if (batch.length > 0) await storeBatch(connection, batch);
        if (failures > 0) logger.info({ events: where }, "security events read again");
        failures = 0;
      } catch (error) {
        failures += 1;
        consumer = undefined;
        const retryInMs = Math.round(backoffMs(failures, maxBackoffMs));
        logger.warn(
          { events: where, error: messageOf(error), attempt: failures, retryInMs },
          "security events not read, retrying",
        );
        await sleep(retryInMs, undefined, { signal: stopping.signal }).catch(() => {});
      }
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await running;
      await nats.current?.close();
    },
  };
}
