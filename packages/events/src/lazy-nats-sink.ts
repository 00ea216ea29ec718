import type { Logger } from "@auth/runtime";
import type { NatsSinkOptions } from "./nats-sink.js";
import type { EventSink } from "./sink.js";

/**
 * natsEventSink with the NATS client loaded in the background: the client's modules load only in
 * a process whose events go to NATS (docs/performance.md, "Modules loaded at start"). A publication
 * waits for the load, then behaves as natsEventSink's.
 */
export function lazyNatsEventSink(url: string, logger: Logger, options: NatsSinkOptions): EventSink {
  const sink = import("./nats-sink.js").then(({ natsEventSink }) => natsEventSink(url, logger, options));
  return {
    publish: async (events) => (await sink).publish(events),
    close: async () => (await sink).close(),
  };
}
