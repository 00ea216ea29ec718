import { randomUUID } from "node:crypto";
import { eventJson, newEvent, systemOrigin } from "@auth/events";
import type { Database } from "@auth/pg";
import { type Event, Outcome } from "@auth/proto/events";
import { type AuditSchema, auditEvents, webhookDeliveries } from "../schema.js";

const hour = 3_600_000;

/**
 * An event of the webhook's company stored with its delivery to the webhook, as the audit store
 * makes them in production: due now, retried for an hour unless told otherwise.
 */
export async function storeEventFor(
  db: Database<AuditSchema>,
  webhook: { id: string; companyId: string },
  options: { retryUntil?: Date; nextAttemptAt?: Date; createdAt?: Date } = {},
): Promise<{ event: Event; payload: string; deliveryId: string }> {
  const event = newEvent("identity", {
    type: "auth.password.changed",
    companyId: webhook.companyId,
    userId: randomUUID(),
    outcome: Outcome.SUCCEEDED,
    origin: systemOrigin,
  });
  const payload = eventJson(event);
  await db.insert(auditEvents).values({
    id: event.id,
    companyId: webhook.companyId,
    userId: event.userid,
    type: event.type,
    source: event.source,
    time: event.time ?? new Date(),
    payload,
  });
  const now = new Date();
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({
      webhookId: webhook.id,
      eventId: event.id,
      eventType: event.type,
      retryUntil: options.retryUntil ?? new Date(now.getTime() + hour),
      nextAttemptAt: options.nextAttemptAt ?? now,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning({ id: webhookDeliveries.id });
  if (!delivery) throw new Error("insert returned no delivery");
  return { event, payload, deliveryId: delivery.id };
}
