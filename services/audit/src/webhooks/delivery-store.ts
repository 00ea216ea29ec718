import { AuthError } from "@auth/errors";
import type { Database } from "@auth/pg";
import { type Delivery, DeliveryState } from "@auth/proto/audit";
import type { SecretBox } from "@auth/runtime";
import { and, asc, desc, eq, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import { type AuditSchema, auditEvents, webhookDeliveries, webhooks } from "../schema.js";
import { signingSecrets } from "./signing-secrets.js";

/** A delivery's state as stored. */
export type StoredState = "pending" | "succeeded" | "dead";

/** A due delivery a sender holds: what it sends, where, and signed with which secrets. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  /** The `webhook-id` of every attempt. */
  eventId: string;
  /** Attempts made before this one. */
  attempts: number;
  retryUntil: Date;
  url: string;
  /** The event's CloudEvents JSON, the body sent. */
  payload: string;
  /** The current secret, then the rotated-out one while its overlap lasts. */
  secrets: string[];
}

/** One attempt's outcome, as the dispatcher decided it. */
export type AttemptOutcome = { attemptedAt: Date; status: number; error: string } & (
  | { state: "pending"; nextAttemptAt: Date }
  | { state: "succeeded" }
  /** `gone`: the receiver answered 410, and the webhook is disabled with it. */
  | { state: "dead"; gone: boolean }
);

export interface DeliveryStoreOptions {
  /** Opens the signing secrets. */
  secretBox: SecretBox;
  /** WEBHOOK_RETRY_FOR_MS: the retry period of a replayed delivery. */
  retryForMs: number;
  now?: () => Date;
}

const storedStates: Partial<Record<DeliveryState, StoredState>> = {
  [DeliveryState.PENDING]: "pending",
  [DeliveryState.SUCCEEDED]: "succeeded",
  [DeliveryState.DEAD]: "dead",
};
const apiStates: Record<string, DeliveryState> = {
  pending: DeliveryState.PENDING,
  succeeded: DeliveryState.SUCCEEDED,
  dead: DeliveryState.DEAD,
};

/**
 * The page token of ListDeliveries: the last row's creation time (to the microsecond, as PostgreSQL
 * keeps it, which a Date would round) and id, so that a page costs the same at any depth.
 */
const pageTokenShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z [0-9a-f-]{36}$/;
const encodePageToken = (createdKey: string, id: string) =>
  Buffer.from(`${createdKey} ${id}`).toString("base64url");

function decodePageToken(token: string): { createdKey: string; id: string } {
  const text = Buffer.from(token, "base64url").toString("utf8");
  if (!pageTokenShape.test(text)) {
    throw new AuthError("request.validation.failed", {
      detail: "pageToken: is not a page token of this list",
    });
  }
  const [createdKey = "", id = ""] = text.split(" ");
  return { createdKey, id };
}

const createdKeyOf = sql<string>`to_char(${webhookDeliveries.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The webhooks' deliveries: claimed by the dispatchers, their attempts recorded, listed and
 * replayed for operators (docs/decisions.md, "Audit trail and webhooks"). The audit store makes
 * them, with the events.
 */
export class DeliveryStore {
  readonly #now: () => Date;

  constructor(
    private readonly db: Database<AuditSchema>,
    private readonly options: DeliveryStoreOptions,
  ) {
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Up to `limit` deliveries due at `now` of enabled webhooks, the longest due first, each held for
   * `holdMs`: its next attempt moves that far, so no other dispatcher claims it meanwhile, and it is
   * due again if its sender dies. Rows another dispatcher is claiming are skipped, not waited for.
   */
  async claimDue(limit: number, now: Date, holdMs: number): Promise<ClaimedDelivery[]> {
    const rows = await this.db.transaction(async (tx) => {
      const due = await tx
        .select({
          id: webhookDeliveries.id,
          webhookId: webhookDeliveries.webhookId,
          eventId: webhookDeliveries.eventId,
          attempts: webhookDeliveries.attempts,
          retryUntil: webhookDeliveries.retryUntil,
          url: webhooks.url,
          payload: auditEvents.payload,
          secretSealed: webhooks.secretSealed,
          previousSecretSealed: webhooks.previousSecretSealed,
          previousSecretExpiresAt: webhooks.previousSecretExpiresAt,
        })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .innerJoin(auditEvents, eq(auditEvents.id, webhookDeliveries.eventId))
        .where(
          and(
            eq(webhookDeliveries.state, "pending"),
            lte(webhookDeliveries.nextAttemptAt, now),
            eq(webhooks.enabled, true),
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit)
        .for("update", { of: webhookDeliveries, skipLocked: true });
      if (due.length > 0) {
        await tx
          .update(webhookDeliveries)
          .set({ nextAttemptAt: new Date(now.getTime() + holdMs) })
          .where(
            inArray(
              webhookDeliveries.id,
              due.map((row) => row.id),
            ),
          );
      }
      return due;
    });
    return rows.map(({ secretSealed, previousSecretSealed, previousSecretExpiresAt, ...delivery }) => ({
      ...delivery,
      secrets: signingSecrets(
        { secretSealed, previousSecretSealed, previousSecretExpiresAt },
        this.options.secretBox,
        now,
      ),
    }));
  }

  /**
   * Records an attempt of a claimed delivery; a 410 disables its webhook ("gone") in the same
   * transaction. A delivery no longer pending (its webhook deleted meanwhile) is left as it is.
   */
  async recordOutcome(delivery: { id: string; webhookId: string }, outcome: AttemptOutcome): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({
          state: outcome.state,
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          lastAttemptAt: outcome.attemptedAt,
          lastStatus: outcome.status,
          lastError: outcome.error,
          nextAttemptAt: outcome.state === "pending" ? outcome.nextAttemptAt : null,
        })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, "pending")));
      if (outcome.state === "dead" && outcome.gone) {
        await tx
          .update(webhooks)
          .set({ enabled: false, disabledReason: "gone" })
          .where(eq(webhooks.id, delivery.webhookId));
      }
    });
  }

  /** The webhook's deliveries, newest first, of one state or all; paged. */
  async list(
    companyId: string,
    webhookId: string,
    query: { state: DeliveryState; pageSize: number; pageToken: string },
  ): Promise<{ deliveries: Delivery[]; nextPageToken: string }> {
    await this.#assertWebhook(companyId, webhookId);
    const conditions: SQL[] = [eq(webhookDeliveries.webhookId, webhookId)];
    const state = storedStates[query.state];
    if (state) conditions.push(eq(webhookDeliveries.state, state));
    if (query.pageToken !== "") {
      const after = decodePageToken(query.pageToken);
      conditions.push(
        sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${after.createdKey}::timestamptz, ${after.id}::uuid)`,
      );
    }
    const rows = await this.db
      .select({ delivery: webhookDeliveries, createdKey: createdKeyOf })
      .from(webhookDeliveries)
      .where(and(...conditions))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(query.pageSize + 1);
    const page = rows.slice(0, query.pageSize);
    const last = page.at(-1);
    return {
      deliveries: page.map(({ delivery }) => ({
        id: delivery.id,
        webhookId: delivery.webhookId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        state: apiStates[delivery.state] ?? DeliveryState.UNSPECIFIED,
        attempts: delivery.attempts,
        createdAt: delivery.createdAt,
        nextAttemptAt: delivery.state === "pending" ? (delivery.nextAttemptAt ?? undefined) : undefined,
        lastAttemptAt: delivery.lastAttemptAt ?? undefined,
        lastStatus: delivery.lastStatus,
        lastError: delivery.lastError,
      })),
      nextPageToken:
        rows.length > query.pageSize && last ? encodePageToken(last.createdKey, last.delivery.id) : "",
    };
  }

  /**
   * Sends deliveries again from a first attempt, with a new retry period: the ones named, or every
   * dead one of the webhook. A pending one (waiting, or being sent) is left as it is. Returns how
   * many were queued.
   */
  async replay(companyId: string, webhookId: string, deliveryIds: string[]): Promise<number> {
    await this.#assertWebhook(companyId, webhookId);
    const now = this.#now();
    const replayed = await this.db
      .update(webhookDeliveries)
      .set({
        state: "pending",
        attempts: 0,
        retryUntil: new Date(now.getTime() + this.options.retryForMs),
        nextAttemptAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.webhookId, webhookId),
          deliveryIds.length > 0
            ? and(inArray(webhookDeliveries.id, deliveryIds), ne(webhookDeliveries.state, "pending"))
            : eq(webhookDeliveries.state, "dead"),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return replayed.length;
  }

  async #assertWebhook(companyId: string, webhookId: string): Promise<void> {
    const [row] = await this.db
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, webhookId)));
    if (!row) throw new AuthError("resource.notfound", { detail: "no such webhook" });
  }
}
