import { isDeepStrictEqual } from "node:util";
import { AuthError } from "@auth/errors";
import type { EventOrigin } from "@auth/events";
import { recordEvents } from "@auth/events/pg";
import type { Database } from "@auth/pg";
import type { Webhook } from "@auth/proto/audit";
import type { SecretBox } from "@auth/runtime";
import { and, asc, eq } from "drizzle-orm";
import { type AuditSchema, webhookDeliveries, webhooks } from "../schema.js";
import { newSigningSecret, previousSecretSignsUntil } from "./signing-secrets.js";
import { webhookChanged } from "./webhook-events.js";

type WebhookRow = typeof webhooks.$inferSelect;

export interface NewWebhook {
  companyId: string;
  url: string;
  eventTypes: string[];
  description: string;
}

/** What UpdateWebhook may change; a field left out stays as it is. */
export interface WebhookChanges {
  url?: string;
  eventTypes?: string[];
  description?: string;
  enabled?: boolean;
}

export interface WebhookStoreOptions {
  /** Seals the signing secrets with SECRETS_KEY. */
  secretBox: SecretBox;
  /** WEBHOOK_RETRY_FOR_MS: the new retry period of the waiting deliveries of a webhook enabled again. */
  retryForMs: number;
  now?: () => Date;
}

/** The columns an update may change, each by the name of its field in the API (the event's `fields`). */
const changeableFields = {
  url: "url",
  eventTypes: "eventTypes",
  description: "description",
  enabled: "enabled",
} as const satisfies Partial<Record<keyof WebhookRow, string>>;

const notFound = () => new AuthError("resource.notfound", { detail: "no such webhook" });

/**
 * A company's webhooks, in the audit service's database, their signing secrets sealed. Each write
 * records admin.webhook.changed in its own transaction, by `origin`: who asked for it
 * (docs/decisions.md, "Audit trail and webhooks").
 */
export class WebhookStore {
  readonly #now: () => Date;

  constructor(
    private readonly db: Database<AuditSchema>,
    private readonly options: WebhookStoreOptions,
  ) {
    this.#now = options.now ?? (() => new Date());
  }

  /** Creates the webhook and returns it with its first signing secret, which is not kept in the clear. */
  async create(webhook: NewWebhook, origin: EventOrigin): Promise<{ webhook: Webhook; secret: string }> {
    const secret = newSigningSecret();
    const now = this.#now();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhooks)
        .values({ ...webhook, secretSealed: this.options.secretBox.seal(secret), createdAt: now })
        .returning();
      if (!row) throw new Error("insert returned no webhook");
      const fields = ["url", "eventTypes", ...(row.description === "" ? [] : ["description"])];
      await recordEvents(tx, [webhookChanged(row, "created", fields, origin, now)]);
      return { webhook: this.#toWebhook(row, now), secret };
    });
  }

  /** The company's webhooks, oldest first, without their secrets. */
  async list(companyId: string): Promise<Webhook[]> {
    const rows = await this.db
      .select()
      .from(webhooks)
      .where(eq(webhooks.companyId, companyId))
      .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
    const now = this.#now();
    return rows.map((row) => this.#toWebhook(row, now));
  }

  /**
   * Applies the changes. Enabling a disabled webhook makes its waiting deliveries due now, each with
   * a new retry period; disabling it makes them wait. A write that changes nothing records nothing.
   */
  async update(
    companyId: string,
    id: string,
    changes: WebhookChanges,
    origin: EventOrigin,
  ): Promise<Webhook> {
    const now = this.#now();
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, id)))
        .for("update");
      if (!before) throw notFound();
      const fields = (Object.keys(changeableFields) as (keyof typeof changeableFields)[]).filter(
        (key) => changes[key] !== undefined && !isDeepStrictEqual(changes[key], before[key]),
      );
      if (fields.length === 0) return this.#toWebhook(before, now);
      const enabled = changes.enabled ?? before.enabled;
      const [after] = await tx
        .update(webhooks)
        .set({
          ...Object.fromEntries(fields.map((key) => [key, changes[key]])),
          disabledReason: enabled ? "" : before.enabled ? "operator" : before.disabledReason,
        })
        .where(eq(webhooks.id, id))
        .returning();
      if (!after) throw new Error("update returned no webhook");
      if (enabled && !before.enabled) {
        await tx
          .update(webhookDeliveries)
          .set({ nextAttemptAt: now, retryUntil: new Date(now.getTime() + this.options.retryForMs) })
          .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.state, "pending")));
      }
      const names = fields.map((key) => changeableFields[key]);
      await recordEvents(tx, [webhookChanged(after, "updated", names, origin, now)]);
      return this.#toWebhook(after, now);
    });
  }

  /** Deletes the webhook and, with it, its deliveries. */
  async delete(companyId: string, id: string, origin: EventOrigin): Promise<void> {
    const now = this.#now();
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(webhooks)
        .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, id)))
        .returning({ id: webhooks.id, companyId: webhooks.companyId });
      if (!row) throw notFound();
      await recordEvents(tx, [webhookChanged(row, "deleted", [], origin, now)]);
    });
  }

  /**
   * Gives the webhook a new signing secret, and keeps the current one signing beside it for
   * `overlapMs`. Only two secrets ever sign: a secret rotated out before, still in its overlap, stops
   * signing now.
   */
  async rotateSecret(
    companyId: string,
    id: string,
    overlapMs: number,
    origin: EventOrigin,
  ): Promise<{ webhook: Webhook; secret: string }> {
    const secret = newSigningSecret();
    const now = this.#now();
    return this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ secretSealed: webhooks.secretSealed })
        .from(webhooks)
        .where(and(eq(webhooks.companyId, companyId), eq(webhooks.id, id)))
        .for("update");
      if (!before) throw notFound();
      const [row] = await tx
        .update(webhooks)
        .set({
          secretSealed: this.options.secretBox.seal(secret),
          previousSecretSealed: before.secretSealed,
          previousSecretExpiresAt: new Date(now.getTime() + overlapMs),
        })
        .where(eq(webhooks.id, id))
        .returning();
      if (!row) throw new Error("update returned no webhook");
      await recordEvents(tx, [webhookChanged(row, "rotated", ["secret"], origin, now)]);
      return { webhook: this.#toWebhook(row, now), secret };
    });
  }

  #toWebhook(row: WebhookRow, now: Date): Webhook {
    return {
      id: row.id,
      companyId: row.companyId,
      url: row.url,
      eventTypes: row.eventTypes,
      description: row.description,
      enabled: row.enabled,
      disabledReason: row.disabledReason,
      createdAt: row.createdAt,
      previousSecretExpiresAt: previousSecretSignsUntil(row, now),
    };
  }
}
