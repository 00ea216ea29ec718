import type { Event } from "@auth/proto/events";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { bigserial, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { eventJson } from "./event.js";

/**
 * The transactional outbox of a PostgreSQL-backed service (identity, disclaimer): an event is a
 * row written in the same transaction as the change it tells of, and the relay deletes it once
 * NATS (or the events file) has it. Each service's migrations create the table.
 */
export const eventOutbox = pgTable("event_outbox", {
  /** Commit order: the relay publishes by it. */
  position: bigserial("position", { mode: "number" }).primaryKey(),
  id: uuid("id").notNull().unique(),
  /** The event's CloudEvents JSON (`eventJson`). */
  payload: text("payload").notNull(),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The migration that creates the table, for a service's drizzle migrations folder. */
export const eventOutboxMigration = `CREATE TABLE IF NOT EXISTS "event_outbox" (
  "position" bigserial PRIMARY KEY,
  "id" uuid NOT NULL,
  "payload" text NOT NULL,
  "recorded_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "event_outbox_id_unique" UNIQUE ("id")
);`;

// biome-ignore lint/suspicious/noExplicitAny: any service's schema, or its transaction
type AnyDatabase = PgDatabase<PgQueryResultHKT, any>;

/** Writes the events in the caller's transaction (or statement): they commit with the change or not at all. */
export async function recordEvents(db: AnyDatabase, events: readonly Event[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(eventOutbox).values(events.map((event) => ({ id: event.id, payload: eventJson(event) })));
}
