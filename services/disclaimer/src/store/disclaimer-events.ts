import { type EventOrigin, newEvent } from "@auth/events";
import { type Event, Outcome } from "@auth/proto/events";

/** What an operator did to a disclaimer, as admin.disclaimer.changed names it. */
export type DisclaimerAction = "created" | "version_published" | "deactivated";

/** auth.disclaimer.accepted: the user accepted the current versions of these disclaimers. */
export function acceptedEvent(
  acceptance: { companyId: string; userId: string },
  codes: string[],
  origin: EventOrigin,
  now: Date,
): Event {
  return newEvent(
    "disclaimer",
    {
      type: "auth.disclaimer.accepted",
      companyId: acceptance.companyId,
      userId: acceptance.userId,
      outcome: Outcome.SUCCEEDED,
      origin,
      detail: { disclaimer: { codes } },
    },
    now,
  );
}

/**
 * admin.disclaimer.changed: an operator's write of one of the company's disclaimers, which the
 * operators' API names by its code; `fields` names what changed, never its value.
 */
export function changedEvent(
  disclaimer: { companyId: string; code: string },
  action: DisclaimerAction,
  fields: string[],
  origin: EventOrigin,
): Event {
  return newEvent("disclaimer", {
    type: "admin.disclaimer.changed",
    companyId: disclaimer.companyId,
    subject: `disclaimer/${disclaimer.code}`,
    outcome: Outcome.SUCCEEDED,
    origin,
    detail: { adminChange: { resource: "disclaimer", resourceId: disclaimer.code, action, fields } },
  });
}
