import { eventOutbox } from "@auth/events/pg";
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/** The events of the operators' writes below, written in their transactions (docs/decisions.md, "Security events"). */
export { eventOutbox };

/**
 * Every security event the suite published, once each (by its id), kept for its company's
 * retention (docs/decisions.md, "Audit trail and webhooks").
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    /** The event's id (a UUIDv7): a second copy of an event is dropped by it. */
    id: uuid("id").primaryKey(),
    /** The identity service's company id; no foreign key, the company lives in another database. */
    companyId: uuid("company_id").notNull(),
    /** Null for a company's events that are about no user. */
    userId: uuid("user_id"),
    sessionId: text("session_id"),
    type: text("type").notNull(),
    source: text("source").notNull(),
    time: timestamp("time", { withTimezone: true, precision: 3 }).notNull(),
    /** The event's CloudEvents JSON as the stream carried it (`eventJson`): what a webhook receives. */
    payload: text("payload").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_events_company_time").on(table.companyId, table.time.desc(), table.id.desc()),
    index("audit_events_user_time").on(table.companyId, table.userId, table.time.desc(), table.id.desc()),
  ],
);

/** How long a company's events are kept, when an operator set it; 90 days otherwise. */
export const retention = pgTable("retention", {
  companyId: uuid("company_id").primaryKey(),
  days: integer("days").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How far the audit service has read a feed it keeps its own place in: the events file (its byte
 * offset), written in the transaction that stores the events read up to there.
 */
export const feedPositions = pgTable("feed_positions", {
  /** "file:<path>". */
  feed: text("feed").primaryKey(),
  position: bigint("position", { mode: "number" }).notNull(),
});

/** A company's subscription of an HTTPS endpoint to event types. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: uuid("company_id").notNull(),
    url: text("url").notNull(),
    eventTypes: text("event_types").array().notNull(),
    description: text("description").notNull().default(""),
    enabled: boolean("enabled").notNull().default(true),
    /** "operator" or "gone" (the receiver answered 410); empty while enabled. */
    disabledReason: text("disabled_reason").notNull().default(""),
    /** The signing secret ("whsec_..."), sealed with SECRETS_KEY (SecretBox of @auth/runtime). */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret a rotation replaced, sealed, signing too until `previousSecretExpiresAt`. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("webhooks_company").on(table.companyId)],
);

/**
 * One event to one webhook: made in the transaction that stores the event, for each enabled
 * webhook of its company subscribed to its type, so each event is delivered to each webhook once
 * (and again only when it is retried or replayed).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => auditEvents.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** "pending", "succeeded" or "dead". */
    state: text("state").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the retries stop: the first attempt (or the replay) plus the retry period. */
    retryUntil: timestamp("retry_until", { withTimezone: true }).notNull(),
    /** Due at or after this time while pending; a sender holds a delivery by moving it past its timeout. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastStatus: integer("last_status").notNull().default(0),
    lastError: text("last_error").notNull().default(""),
  },
  (table) => [
    unique("webhook_deliveries_webhook_event_key").on(table.webhookId, table.eventId),
    index("webhook_deliveries_due").on(table.nextAttemptAt).where(sql`${table.state} = 'pending'`),
    index("webhook_deliveries_webhook_created").on(table.webhookId, table.createdAt.desc()),
  ],
);

export const schema = { auditEvents, retention, feedPositions, webhooks, webhookDeliveries, eventOutbox };
export type AuditSchema = typeof schema;
