import type { ConnectRetry, Logger } from "@auth/runtime";
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { describeNats } from "./nats-address.js";
import { connectNatsInBackground } from "./nats-connection.js";
import type { EventSink } from "./sink.js";

const subjectPrefix = "auth.events";

/** The stream every service publishes its events to (docs/decisions.md, "Security events"). */
export const eventStream = { name: "AUTH_EVENTS", subjects: [`${subjectPrefix}.>`] } as const;

/** `auth.events.<service>.<type>`: the type's dots make tokens of the subject. */
export function subjectOf(event: { source: string; type: string }): string {
  return `${subjectPrefix}.${event.source.replace(/^auth-suite\//, "")}.${event.type}`;
}

/** The subjects of every service's events whose type matches, with NATS wildcards (`auth.login.*`, `admin.>`). */
export const subjectFilterOf = (typePattern = ">") => `${subjectPrefix}.*.${typePattern}`;

/**
 * Creates the stream, or brings the settings the suite owns to what it needs: its subjects and
 * the 2-hour window in which a copy with the same message id is dropped (a relay republishing
 * after a crash). What operators tune (age, size, placement) an update keeps.
 */
export async function ensureEventStream(manager: JetStreamManager, replicas: number): Promise<void> {
  const owned = {
    subjects: [...eventStream.subjects],
    duplicate_window: nanos(2 * 60 * 60 * 1000),
    num_replicas: replicas,
  };
  try {
    await manager.streams.update(eventStream.name, owned);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
    await manager.streams.add({
      name: eventStream.name,
      ...owned,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
    });
  }
}

export interface NatsSinkOptions {
  /** The CA that signed the NATS servers' certificates (tls:// URLs). */
  caFile?: string;
  /** The stream's replicas when created or updated: 3 on a 3-node cluster, 1 on a single server. */
  replicas?: number;
  /** Milliseconds a publication may wait for its PubAck before the batch fails. */
  publishTimeoutMs?: number;
  /** How the first connection is retried until NATS answers (later ones, forever, by the client). */
  connectRetry?: ConnectRetry;
}

/**
 * NATS JetStream: each event published on its subject with its id as the message id, each PubAck
 * awaited in turn. The first connection is made in the background, attempt after attempt; until
 * it is made, a publication fails (the relay waits and tries again). The stream is ensured before
 * the first publication and again after one failed.
 */
export function natsEventSink(url: string, logger: Logger, options: NatsSinkOptions = {}): EventSink {
  const timeout = options.publishTimeoutMs ?? 5_000;
  const retry = options.connectRetry ?? { attemptTimeoutMs: 5_000, maxDelayMs: 5_000 };
  const stop = new AbortController();
  const nats = connectNatsInBackground({ url, caFile: options.caFile, retry, logger, signal: stop.signal });
  let streamReady: Promise<void> | undefined;

  return {
    async publish(events) {
      const nc = nats.current;
      if (!nc) throw new Error(`${describeNats(url)} not reached yet`);
      try {
        streamReady ??= jetstreamManager(nc).then((manager) =>
          ensureEventStream(manager, options.replicas ?? 1),
        );
        await streamReady;
        const js = jetstream(nc, { timeout });
        for (const event of events) {
          await js.publish(subjectOf(event), event.json, { msgID: event.id, timeout });
        }
      } catch (error) {
        streamReady = undefined;
        throw error;
      }
    },
    async close() {
      stop.abort();
      await nats.current?.close();
    },
  };
}
