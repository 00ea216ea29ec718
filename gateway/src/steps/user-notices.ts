import type { NotificationEvent } from "@auth/proto/identity";
import type { FlowContext } from "../endpoint/context.js";

/**
 * Tells the user of what the session service answered the flow: a sign-in from a new device, a
 * lock-out, a recovery's start by control question or its end (docs/security.md,
 * "Notifications"). identity, which owns the user's addresses, sends the notice and caps it. Not
 * waited for: a notice that cannot be sent never fails the flow; it is logged.
 */
export function tellUser(
  context: FlowContext,
  userId: string,
  event: NotificationEvent,
  userAgent?: string,
): void {
  context.backends.identity
    .notifyUser({ companyId: context.company.id, userId, event, userAgent })
    .catch((error: unknown) => context.log.warn({ err: error, event }, "the user was not told"));
}
