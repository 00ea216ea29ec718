import { eventFromJson } from "@auth/events";
import { eventStream, natsConnectOptions } from "@auth/events/nats";
import type { Event } from "@auth/proto/events";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";

/** One message of the AUTH_EVENTS stream. */
export interface StreamedEvent {
  /** Its sequence in the stream. */
  seq: number;
  /** The Nats-Msg-Id the relay published it with. */
  msgId: string | undefined;
  /** When the stream stored it (milliseconds since the epoch). */
  storedAt: number;
  event: Event;
}

/**
 * Every message of the AUTH_EVENTS stream of this NATS, in stream order, read with an ordered
 * consumer up to the last message the stream held when asked.
 */
export async function readEventStream(url: string): Promise<StreamedEvent[]> {
  const nc = await connect({ ...natsConnectOptions(url), maxReconnectAttempts: 0 });
  try {
    const { state } = await (await jetstreamManager(nc)).streams.info(eventStream.name);
    const read: StreamedEvent[] = [];
    if (state.messages === 0) return read;
    const messages = await (await jetstream(nc).consumers.get(eventStream.name)).consume();
    for await (const message of messages) {
      read.push({
        seq: message.seq,
        msgId: message.headers?.get("Nats-Msg-Id"),
        storedAt: Number(message.timestampNanos / 1_000_000n),
        event: eventFromJson(message.string()),
      });
      if (message.seq >= state.last_seq) break;
    }
    await messages.close();
    return read;
  } finally {
    await nc.close();
  }
}
