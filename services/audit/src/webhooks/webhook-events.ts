import { type EventOrigin, newEvent } from "@auth/events";
import { type Event, Outcome } from "@auth/proto/events";

/** What an operator did to a webhook, as admin.webhook.changed names it. */
export type WebhookAction = "created" | "updated" | "deleted" | "rotated";

/**
 * admin.webhook.changed: an operator's write of one of the company's webhooks; `fields` names what
 * changed ("url", "eventTypes", "description", "enabled", "secret"), never its value.
 */
export function webhookChanged(
  webhook: { companyId: string; id: string },
  action: WebhookAction,
  fields: string[],
  origin: EventOrigin,
  now: Date,
): Event {
  return newEvent(
    "audit",
    {
      type: "admin.webhook.changed",
      companyId: webhook.companyId,
      subject: `webhook/${webhook.id}`,
      outcome: Outcome.SUCCEEDED,
      origin,
      detail: { adminChange: { resource: "webhook", resourceId: webhook.id, action, fields } },
    },
    now,
  );
}
