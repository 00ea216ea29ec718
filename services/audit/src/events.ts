import { type EventOrigin, newEvent } from "@auth/events";
import { type Event, Outcome } from "@auth/proto/events";

/**
 * admin.retention.changed: an operator set how long the company's events are kept. The detail
 * names the field, never its value (docs/decisions.md, "Security events").
 */
export function retentionChangedEvent(companyId: string, origin: EventOrigin): Event {
  return newEvent("audit", {
    type: "admin.retention.changed",
    companyId,
    subject: `retention/${companyId}`,
    outcome: Outcome.SUCCEEDED,
    origin,
    detail: {
      adminChange: { resource: "retention", resourceId: companyId, action: "updated", fields: ["days"] },
    },
  });
}
