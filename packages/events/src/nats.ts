// `@auth/events/nats`: the NATS client's side of the events, apart from the package's entry so that
// a process whose events go to the file never loads the client (docs/performance.md, "Modules loaded at start").
export {
  type BackgroundNatsConnection,
  connectNatsInBackground,
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
