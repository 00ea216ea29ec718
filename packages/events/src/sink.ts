/**
 * An event as the relay hands it to a sink: its JSON as the service stored it, and the attributes
 * a sink routes and drops copies by.
 */
export interface RelayedEvent {
  id: string;
  /** As the event names it: `auth-suite/<service>`. */
  source: string;
  type: string;
  /** When the service committed it. */
  time: Date;
  json: string;
}

/** Where the relay publishes: NATS JetStream, or the events file of the embedded default. */
export interface EventSink {
  /** Publishes the events in their order; resolves once the sink has acknowledged every one. */
  publish(events: readonly RelayedEvent[]): Promise<void>;
  close(): Promise<void>;
}
