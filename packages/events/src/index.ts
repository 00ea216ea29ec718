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
export { describeNats } from "./nats-address.js";
export { type Pacing, pacing } from "./pacing.js";
export { type OutboxSource, type Relay, type RelayOptions, startRelay } from "./relay.js";
export type { EventSink, RelayedEvent } from "./sink.js";
