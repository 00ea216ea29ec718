import { env, type Logger } from "@auth/runtime";
import { z } from "zod";
import { fileEventSink } from "./file-sink.js";
import { lazyNatsEventSink } from "./lazy-nats-sink.js";
import { describeNats } from "./nats-address.js";
import { type Relay, type RelayOptions, startRelay } from "./relay.js";
import type { EventSink } from "./sink.js";

/** Where a service's relay publishes its security events (docs/decisions.md, "Security events"). */
export const eventsEnvironment = {
  /** NATS with JetStream (nats:// or tls://, credentials in the URL if any); without it, EVENTS_FILE. */
  NATS_URL: env.url(["nats:", "tls:"]).optional(),
  /** The CA that signed the certificates of NATS (with a tls:// NATS_URL); Node's CAs without it. */
  NATS_CA_FILE: z.string().min(1).optional(),
  /** Replicas of the AUTH_EVENTS stream, as the services create or update it: 3 on a 3-node cluster. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** The embedded default's sink: one JSON line per event, appended. */
  EVENTS_FILE: z.string().min(1).default(".data/events.jsonl"),
  /** Milliseconds between two reads of an outbox that had entries, or after a call that may have written. */
  EVENTS_POLL_MS: env.positiveInt(200),
  /** The longest wait between two reads of an outbox that stays empty: how late a write no call woke is read. */
  EVENTS_IDLE_POLL_MS: env.positiveInt(800),
};

export type EventsConfig = z.infer<z.ZodObject<typeof eventsEnvironment>>;

/** NATS JetStream when NATS_URL is set, else the events file. */
export function openEventSink(config: EventsConfig, logger: Logger): EventSink {
  if (config.NATS_URL) {
    logger.info({ events: describeNats(config.NATS_URL) }, "security events go to NATS JetStream");
    return lazyNatsEventSink(config.NATS_URL, logger, {
      caFile: config.NATS_CA_FILE,
      replicas: config.NATS_STREAM_REPLICAS,
    });
  }
  logger.info({ events: config.EVENTS_FILE }, "security events go to the events file");
  return fileEventSink(config.EVENTS_FILE);
}

/**
 * What each service starts with: its outbox relayed to the sink its settings choose. `stop` ends
 * the relay (after the batch under way), then the sink; call it before the store closes. Give
 * `wake` to the gRPC server (`onAnswered`): a call may have written events.
 */
export function relayServiceOutbox(options: Omit<RelayOptions, "sink"> & { config: EventsConfig }): Relay {
  const { config, ...relayOptions } = options;
  const sink = openEventSink(config, options.logger);
  const relay = startRelay({
    pollMs: config.EVENTS_POLL_MS,
    idlePollMs: config.EVENTS_IDLE_POLL_MS,
    ...relayOptions,
    sink,
  });
  return {
    stop: async () => {
      await relay.stop();
      await sink.close();
    },
    wake: relay.wake,
  };
}
