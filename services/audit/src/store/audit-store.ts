import { AuthError } from "@auth/errors";
import { type EventOrigin, eventFromJson } from "@auth/events";
import { recordEvents } from "@auth/events/pg";
import type { Database } from "@auth/pg";
import type { Event } from "@auth/proto/events";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { retentionChangedEvent } from "../events.js";
import { OWN_EVENT_TYPES } from "../own-events.js";
import {
  type AuditSchema,
  auditEvents,
  feedPositions,
  retention,
  webhookDeliveries,
  webhooks,
} from "../schema.js";

/** How long a company's events are kept when no operator set it (docs/decisions.md, "Audit trail and webhooks"). */
export const defaultRetentionDays = 90;

/** The most events one statement of the retention sweep deletes. */
const sweepBatch = 1_000;

const day = 86_400_000;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => uuidPattern.test(value);

/** How far a feed has read, written with the events read up to there. */
export interface FeedPosition {
  /** "file:<path>". */
  feed: string;
  position: number;
}

/** What one call of `storeEvents` did with the events it was given. */
export interface StoreOutcome {
  /** Newly stored. */
  stored: number;
  /** Stored before (a copy delivered again): nothing changed. */
  duplicates: number;
  /** Not an event, or one no company can keep: dropped with a warning. */
  skipped: number;
  /** Webhook deliveries made for the events newly stored. */
  deliveries: number;
}

export interface EventQuery {
  companyId: string;
  userId?: string;
  /** Every type when empty. */
  types: readonly string[];
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  pageSize: number;
  /** The previous page's `nextPageToken`; empty for the first page. */
  pageToken: string;
}

/** The rows of audit_events as inserted. */
type EventRow = typeof auditEvents.$inferInsert;

/** Why an event cannot be stored; undefined when it can. */
function unstorable(event: Event): string | undefined {
  if (!isUuid(event.id)) return "its id is not a UUID";
  if (!event.type || !event.source || !(event.time instanceof Date) || Number.isNaN(event.time.getTime()))
    return "it has no type, source or time";
  if (!isUuid(event.companyid)) return "its company id is empty or not a UUID";
  if (event.userid !== "" && !isUuid(event.userid)) return "its user id is not a UUID";
  return undefined;
}

/** The last row of a page as the next page's token: opaque to callers, its time and id inside. */
function pageTokenOf(row: { time: Date; id: string }): string {
  return Buffer.from(`${row.time.toISOString()} ${row.id}`).toString("base64url");
}

function afterToken(token: string): { time: string; id: string } {
  const [time = "", id = "", ...rest] = Buffer.from(token, "base64url").toString().split(" ");
  if (rest.length > 0 || !isUuid(id) || Number.isNaN(Date.parse(time)) || !time.endsWith("Z")) {
    throw new AuthError("request.validation.failed", { detail: "page_token: is not a token this list gave" });
  }
  return { time, id };
}

/**
 * The audit service's events, in its own database (docs/decisions.md, "Audit trail and webhooks"):
 * each stored once by its id, with its webhooks' deliveries made in the same transaction; the
 * operators' and the users' queries; each company's retention.
 */
export class AuditStore {
  readonly #db: Database<AuditSchema>;
  readonly #retryForMs: number;
  readonly #logger: Logger;

  /** `retryForMs`: how long a delivery made here is retried (WEBHOOK_RETRY_FOR_MS). */
  constructor(db: Database<AuditSchema>, options: { retryForMs: number; logger: Logger }) {
    this.#db = db;
    this.#retryForMs = options.retryForMs;
    this.#logger = options.logger;
  }

  /**
   * Stores the events of the stream (their JSON as it carried them) in one transaction: each new
   * one with a pending delivery for every enabled webhook of its company subscribed to its type, a
   * copy of one stored before not at all, and `position` (the feed's, when it keeps its own) with
   * them. An event no company can keep is skipped with a warning.
   */
  async storeEvents(lines: readonly string[], position?: FeedPosition): Promise<StoreOutcome> {
    const rows = new Map<string, EventRow>();
    let skipped = 0;
    let repeated = 0;
    for (const line of lines) {
      const row = this.#rowOf(line);
      if (row === undefined) skipped += 1;
      else if (rows.has(row.id)) repeated += 1;
      else rows.set(row.id, row);
    }
    // In id order, so that two replicas storing the same events lock their rows in the same order.
    const candidates = [...rows.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const { stored, deliveries } = await this.#db.transaction(async (tx) => {
      const inserted =
        candidates.length === 0
          ? []
          : await tx
              .insert(auditEvents)
              .values(candidates)
              .onConflictDoNothing({ target: auditEvents.id })
              .returning({ id: auditEvents.id });
      const storedIds = new Set(inserted.map((row) => row.id));
      const stored = candidates.filter((row) => storedIds.has(row.id));
      const deliveries = await this.#makeDeliveries(tx, stored);
      if (position) {
        await tx
          .insert(feedPositions)
          .values(position)
          .onConflictDoUpdate({ target: feedPositions.feed, set: { position: position.position } });
      }
      return { stored, deliveries };
    });
    const committedAt = Date.now();
    for (const row of stored) metrics.auditEventDelay.observe((committedAt - row.time.getTime()) / 1000);
    const duplicates = candidates.length - stored.length + repeated;
    if (stored.length > 0) metrics.auditEventsRead.inc({ outcome: "stored" }, stored.length);
    if (duplicates > 0) metrics.auditEventsRead.inc({ outcome: "duplicate" }, duplicates);
    if (skipped > 0) metrics.auditEventsRead.inc({ outcome: "skipped" }, skipped);
    return { stored: stored.length, duplicates, skipped, deliveries };
  }

  /** The row of a line of the stream; undefined (with a warning naming why, never its content) when it cannot be stored. */
  #rowOf(line: string): EventRow | undefined {
    let event: Event;
    try {
      event = eventFromJson(line);
    } catch {
      this.#logger.warn({ reason: "it is not JSON" }, "security event skipped");
      return undefined;
    }
    const reason = unstorable(event);
    if (reason !== undefined) {
      this.#logger.warn(
        { reason, id: isUuid(event.id) ? event.id : undefined, type: event.type, source: event.source },
        "security event skipped",
      );
      return undefined;
    }
    return {
      id: event.id,
      companyId: event.companyid,
      userId: event.userid || null,
      sessionId: event.sessionid || null,
      type: event.type,
      source: event.source,
      time: event.time as Date,
      payload: line,
    };
  }

  /** One pending delivery per enabled webhook of the event's company subscribed to its type; how many. */
  async #makeDeliveries(tx: Database<AuditSchema>, stored: readonly EventRow[]): Promise<number> {
    if (stored.length === 0) return 0;
    const companies = [...new Set(stored.map((row) => row.companyId))];
    const subscribed = await tx
      .select({ id: webhooks.id, companyId: webhooks.companyId, eventTypes: webhooks.eventTypes })
      .from(webhooks)
      .where(and(inArray(webhooks.companyId, companies), eq(webhooks.enabled, true)));
    if (subscribed.length === 0) return 0;
    const now = new Date();
    const retryUntil = new Date(now.getTime() + this.#retryForMs);
    const values = stored.flatMap((row) =>
      subscribed
        .filter((webhook) => webhook.companyId === row.companyId && webhook.eventTypes.includes(row.type))
        .map((webhook) => ({
          webhookId: webhook.id,
          eventId: row.id,
          eventType: row.type,
          state: "pending",
          nextAttemptAt: now,
          retryUntil,
        })),
    );
    if (values.length === 0) return 0;
    const made = await tx
      .insert(webhookDeliveries)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    return made.length;
  }

  /** Where the feed stopped: 0 when it never stored a position. */
  async feedPosition(feed: string): Promise<number> {
    const [row] = await this.#db
      .select({ position: feedPositions.position })
      .from(feedPositions)
      .where(eq(feedPositions.feed, feed));
    return row?.position ?? 0;
  }

  /** A page of the company's events, newest first (time, then id), after the token's row. */
  async listEvents(query: EventQuery): Promise<{ events: Event[]; nextPageToken: string }> {
    const after = query.pageToken === "" ? undefined : afterToken(query.pageToken);
    const rows = await this.#db
      .select({ id: auditEvents.id, time: auditEvents.time, payload: auditEvents.payload })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.companyId, query.companyId),
          query.userId === undefined ? undefined : eq(auditEvents.userId, query.userId),
          query.types.length === 0 ? undefined : inArray(auditEvents.type, [...query.types]),
          query.from === undefined ? undefined : gte(auditEvents.time, query.from),
          query.to === undefined ? undefined : lt(auditEvents.time, query.to),
          after === undefined
            ? undefined
            : sql`(${auditEvents.time}, ${auditEvents.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`,
        ),
      )
      .orderBy(desc(auditEvents.time), desc(auditEvents.id))
      .limit(query.pageSize + 1);
    const page = rows.slice(0, query.pageSize);
    const last = page.at(-1);
    return {
      events: page.map((row) => eventFromJson(row.payload)),
      nextPageToken: rows.length > query.pageSize && last ? pageTokenOf(last) : "",
    };
  }

  /** The user's most recent events of the kinds a user sees of their own, newest first. */
  async ownEvents(companyId: string, userId: string, limit: number): Promise<Event[]> {
    // No event of a company or user whose id is no UUID is stored (see `unstorable`).
    if (!isUuid(companyId) || !isUuid(userId)) return [];
    const rows = await this.#db
      .select({ payload: auditEvents.payload })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.companyId, companyId),
          eq(auditEvents.userId, userId),
          inArray(auditEvents.type, [...OWN_EVENT_TYPES]),
        ),
      )
      .orderBy(desc(auditEvents.time), desc(auditEvents.id))
      .limit(limit);
    return rows.map((row) => eventFromJson(row.payload));
  }

  /** How many days the company's events are kept. */
  async retentionDays(companyId: string): Promise<number> {
    const [row] = await this.#db
      .select({ days: retention.days })
      .from(retention)
      .where(eq(retention.companyId, companyId));
    return row?.days ?? defaultRetentionDays;
  }

  /**
   * Sets how many days the company's events are kept, with its admin.retention.changed event in
   * the same transaction; setting what is already in force changes nothing and is no event.
   */
  async setRetentionDays(companyId: string, days: number, origin: EventOrigin): Promise<number> {
    await this.#db.transaction(async (tx) => {
      const [before] = await tx
        .select({ days: retention.days })
        .from(retention)
        .where(eq(retention.companyId, companyId))
        .for("update");
      if ((before?.days ?? defaultRetentionDays) === days) return;
      await tx
        .insert(retention)
        .values({ companyId, days })
        .onConflictDoUpdate({ target: retention.companyId, set: { days, updatedAt: sql`now()` } });
      await recordEvents(tx, [retentionChangedEvent(companyId, origin)]);
    });
    return days;
  }

  /**
   * Deletes the events older than their company's retention (the default for a company without
   * one), a batch at a time, their deliveries with them; returns how many went.
   */
  async sweepRetention(now: Date): Promise<number> {
    const companies = await this.#db.selectDistinct({ companyId: auditEvents.companyId }).from(auditEvents);
    const settings = new Map(
      (await this.#db.select({ companyId: retention.companyId, days: retention.days }).from(retention)).map(
        (row) => [row.companyId, row.days],
      ),
    );
    let deleted = 0;
    for (const { companyId } of companies) {
      const cutoff = new Date(now.getTime() - (settings.get(companyId) ?? defaultRetentionDays) * day);
      for (;;) {
        const expired = this.#db
          .select({ id: auditEvents.id })
          .from(auditEvents)
          .where(and(eq(auditEvents.companyId, companyId), lt(auditEvents.time, cutoff)))
          .limit(sweepBatch);
        const gone = await this.#db
          .delete(auditEvents)
          .where(inArray(auditEvents.id, expired))
          .returning({ id: auditEvents.id });
        deleted += gone.length;
        if (gone.length < sweepBatch) break;
      }
    }
    return deleted;
  }
}
