import { eventJson } from "@auth/events/event";
import { Delivery, Webhook } from "@auth/proto/audit";
import { type Actor, ActorKind, type Event, Outcome } from "@auth/proto/events";
import type { Records } from "../table.js";
import { deliveryStateName } from "./audit-options.js";

const time = (at: Date | undefined) => at?.toISOString() ?? "";

const outcomes: Partial<Record<Outcome, string>> = {
  [Outcome.SUCCEEDED]: "succeeded",
  [Outcome.FAILED]: "failed",
};

/** Who made the change: the user, an operator by the subject of the certificate it wrote with, or the suite. */
function actorName(actor: Actor | undefined): string {
  switch (actor?.kind) {
    case ActorKind.USER:
      return "user";
    case ActorKind.OPERATOR:
      return `operator ${actor.certificateSubject || actor.id}`.trim();
    case ActorKind.SYSTEM:
      return "system";
    default:
      return "";
  }
}

/** A company's security events as the audit trail lists them; with --json, each its CloudEvents line. */
export const eventRecords: Records<Event> = {
  columns: [
    { header: "time", cell: (event) => time(event.time) },
    { header: "type", cell: (event) => event.type },
    { header: "outcome", cell: (event) => outcomes[event.outcome] ?? "" },
    { header: "user", cell: (event) => event.userid },
    { header: "actor", cell: (event) => actorName(event.actor) },
    { header: "client address", cell: (event) => event.clientaddress },
  ],
  none: "no events",
  toJSON: (event) => JSON.parse(eventJson(event)),
};

function webhookState(webhook: Webhook): string {
  if (webhook.enabled) return "enabled";
  return webhook.disabledReason ? `disabled (${webhook.disabledReason})` : "disabled";
}

/** A company's webhooks, never their secrets. */
export const webhookRecords: Records<Webhook> = {
  columns: [
    { header: "id", cell: (webhook) => webhook.id },
    { header: "url", cell: (webhook) => webhook.url },
    { header: "event types", cell: (webhook) => webhook.eventTypes.join(",") },
    { header: "state", cell: webhookState },
    { header: "description", cell: (webhook) => webhook.description },
    { header: "created", cell: (webhook) => time(webhook.createdAt) },
    { header: "old secret signs until", cell: (webhook) => time(webhook.previousSecretExpiresAt) },
  ],
  none: "no webhooks",
  toJSON: (webhook) => Webhook.toJSON(webhook),
};

/** A webhook's deliveries: which event, where each stands, and how its last attempt went. */
export const deliveryRecords: Records<Delivery> = {
  columns: [
    { header: "id", cell: (delivery) => delivery.id },
    { header: "created", cell: (delivery) => time(delivery.createdAt) },
    { header: "event", cell: (delivery) => `${delivery.eventType} ${delivery.eventId}` },
    { header: "state", cell: (delivery) => deliveryStateName(delivery.state) },
    { header: "attempts", cell: (delivery) => String(delivery.attempts) },
    { header: "last attempt", cell: (delivery) => time(delivery.lastAttemptAt) },
    // Why it failed ("status 503", "timeout", ...), else the status it got (200).
    {
      header: "last answer",
      cell: (delivery) => delivery.lastError || (delivery.lastStatus ? String(delivery.lastStatus) : ""),
    },
    { header: "next attempt", cell: (delivery) => time(delivery.nextAttemptAt) },
  ],
  none: "no deliveries",
  toJSON: (delivery) => Delivery.toJSON(delivery),
};
