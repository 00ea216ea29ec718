import { Outcome } from "@auth/proto/events";
import { pino } from "pino";
import { eventJson, newEvent, systemOrigin } from "./event.js";
import type { EventSink, RelayedEvent } from "./sink.js";

/** `count` events of distinct users, as a service would write them to its outbox. */
export function someEvents(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, index) =>
    eventJson(
      newEvent("identity", {
        type: "auth.password.changed",
        companyId: "company-1",
        userId: `user-${from + index}`,
        outcome: Outcome.SUCCEEDED,
        origin: systemOrigin,
      }),
    ),
  );
}

export const idOf = (json: string): string => (JSON.parse(json) as { id: string }).id;

/** A logger that keeps its lines, to read what the relay said. */
export function capturingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}

/**
 * A sink that keeps what it acknowledged, in order; `gate` (when set) holds each publication
 * until it resolves, and `fail` makes the next publications throw.
 */
export function recordingSink() {
  const published: RelayedEvent[] = [];
  const sink = {
    published,
    calls: 0,
    failures: 0,
    gate: undefined as Promise<void> | undefined,
    async publish(events: readonly RelayedEvent[]) {
      sink.calls += 1;
      await sink.gate;
      if (sink.failures > 0) {
        sink.failures -= 1;
        throw new Error("sink unavailable");
      }
      published.push(...events);
    },
    close: async () => {},
  } satisfies EventSink & Record<string, unknown>;
  return sink;
}
