import { type EventOrigin, eventJson, newEvent } from "@auth/events";

import type { WriteEvents } from "@auth/kv";
import { Outcome } from "@auth/proto/events";

/** Whose recovery it is. */
export interface RecoveryOf {
  companyId: string;
  userId: string;
}

/**
 * auth.recovery.started as a link is issued, or .finished as it is redeemed, for the write that
 * does it: a recovery by e-mail, the only one this service runs (never the link's token).
 */
export function recoveryEvents(
  type: "auth.recovery.started" | "auth.recovery.finished",
  { companyId, userId }: RecoveryOf,
  origin: EventOrigin,
): WriteEvents {
  const event = newEvent("recovery", {
    type,
    companyId,
    userId,
    outcome: Outcome.SUCCEEDED,
    origin,
    detail: { recovery: { method: "email" } },
  });
  return { events: [eventJson(event)] };
}
