import type { Event } from "@auth/proto/events";
import { inArray, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { bigserial, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { eventJson } from "./event.js";
import type { OutboxSource } from "./relay.js";

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

/** The advisory lock a relay's transaction holds: one replica relays the table at a time. */
const relayLockId = 7_320_119;

/**
 * The outbox table of a PostgreSQL-backed service, on PostgreSQL or PGlite. Each batch is one
 * transaction that first takes the relay lock (a second replica waits for it, then reads what is
 * left), reads the oldest rows, publishes them and deletes them: the rows go only with a
 * publication that succeeded. An empty table costs one statement, outside any transaction.
 */
export function pgOutboxSource(db: AnyDatabase): OutboxSource {
  return {
    relayBatch: async (count, publish) => {
      const [waiting] = await db.select({ position: eventOutbox.position }).from(eventOutbox).limit(1);
      if (!waiting) return 0;
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${relayLockId})`);
        const rows = await tx
          .select({ position: eventOutbox.position, payload: eventOutbox.payload })
          .from(eventOutbox)
          .orderBy(eventOutbox.position)
          .limit(count);
        if (rows.length === 0) return 0;
        await publish(rows.map((row) => ({ position: String(row.position), payload: row.payload })));
        await tx.delete(eventOutbox).where(
          inArray(
            eventOutbox.position,
            rows.map((row) => row.position),
          ),
        );
        return rows.length;
      });
    },
  };
}
