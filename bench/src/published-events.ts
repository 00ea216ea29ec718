import { eventStream, natsConnectOptions } from "@auth/events/nats";
import { DeliverPolicy, jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";

export interface PublishedEvent {
  /** The service that recorded it, as the event names it (`auth-suite/<service>`). */
  source: string;
  /** Milliseconds from its commit (its `time`) to its storing in the stream (the message's timestamp). */
  delayMs: number;
  /** The event as published. */
  json: string;
}

/**
 * The events of one company committed from `from` to `to`, as the AUTH_EVENTS stream holds them.
 * Read once they are all published, by an ordered consumer of the benchmark's own from `from` on,
 * so that reading them costs nothing in the window measured; other suites' events in the shared
 * stream are skipped by their company.
 */
export async function publishedEvents(
  natsUrl: string,
  window: { companyId: string; from: number; to: number },
): Promise<PublishedEvent[]> {
  const nc = await connect(natsConnectOptions(natsUrl));
  try {
    const consumer = await jetstream(nc).consumers.get(eventStream.name, {
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(window.from).toISOString(),
    });
    const messages = await consumer.consume();
    // Nothing to read (no message since `from`) would leave the loop waiting.
    const giveUp = setTimeout(() => messages.stop(), 30_000);
    const events: PublishedEvent[] = [];
    try {
      for await (const message of messages) {
        const json = message.string();
        const event = JSON.parse(json) as { source?: string; time?: string; companyid?: string };
        const committed = Date.parse(event.time ?? "");
        if (event.companyid === window.companyId && committed >= window.from && committed <= window.to) {
          events.push({
            source: event.source ?? "",
            delayMs: message.info.timestampNanos / 1e6 - committed,
            json,
          });
        }
        if (message.info.pending === 0) break;
      }
    } finally {
      clearTimeout(giveUp);
      messages.stop();
    }
    return events;
  } finally {
    await nc.close();
  }
}
