export {
  type DetailField,
  type EventDetail,
  type EventSource,
  type EventType,
  eventCatalogue,
} from "./catalogue.js";
export { type EventsConfig, eventsEnvironment, relayServiceOutbox } from "./environment.js";
export {
  type EventFacts,
  type EventOrigin,
  eventFromJson,
  eventJson,
  newEvent,
  type OriginOf,
  systemOrigin,
} from "./event.js";
export { fileEventSink } from "./file-sink.js";
export { type KeyValueOutboxOptions, keyValueOutboxSource, relayLeaseKey } from "./kv-outbox.js";
export {
  type BackgroundNatsConnection,
  connectNatsInBackground,
  describeNats,
  natsConnectOptions,
} from "./nats-connection.js";
export {
  ensureEventStream,
  eventStream,
  type NatsSinkOptions,
  natsEventSink,
  subjectFilterOf,
  subjectOf,
} from "./nats-sink.js";
export { type OutboxSource, type Relay, type RelayOptions, startRelay } from "./relay.js";
export type { EventSink, RelayedEvent } from "./sink.js";
