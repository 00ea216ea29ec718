import type { EventType } from "@auth/events";
import type { OwnEvent } from "@auth/proto/audit";
import { ActorKind, type Event, Factor } from "@auth/proto/events";

/**
 * The kinds of event a user sees of their own (docs/decisions.md, "Audit trail and webhooks"):
 * what they did, what was tried on their account, and what an operator changed of it.
 */
export const OWN_EVENT_TYPES = [
  "auth.login.succeeded",
  "auth.login.failed",
  "auth.second_factor.failed",
  "auth.account.locked",
  "auth.password.changed",
  "auth.contact.changed",
  "auth.factor.enrolled",
  "auth.factor.removed",
  "auth.recovery.started",
  "auth.recovery.finished",
  "auth.session.revoked",
  "admin.factor.changed",
  "admin.user.changed",
  "admin.session.revoked",
] as const satisfies readonly EventType[];

/** A recovery's method, as the factor it rests on. */
const recoveryFactors: Readonly<Record<string, Factor>> = {
  sms: Factor.SMS_CODE,
  email: Factor.EMAIL_LINK,
  question: Factor.RECOVERY_QUESTION,
};

/**
 * A changed address, as the factor it carries: the phone's SMS codes, the e-mail's links (the
 * page names the change by it; the address itself is in no event).
 */
const contactFactors: Readonly<Record<string, Factor>> = {
  phone: Factor.SMS_CODE,
  email: Factor.EMAIL_LINK,
};

/**
 * The factor the event is about: a check's or enrolment's, a login's last, a lock-out's, a
 * recovery's, a changed address's.
 */
function factorOf(event: Event): Factor {
  return (
    event.factor?.factor ??
    event.login?.methods.at(-1) ??
    event.lockout?.factor ??
    recoveryFactors[event.recovery?.method ?? ""] ??
    contactFactors[event.contactChanged?.kind ?? ""] ??
    Factor.UNSPECIFIED
  );
}

/**
 * The event as its user may see it: the kind of actor only (an operator is never named to the
 * user), and whether it is about the session the user asks from.
 */
export function ownEventOf(event: Event, currentSessionId: string): OwnEvent {
  return {
    id: event.id,
    type: event.type,
    time: event.time,
    outcome: event.outcome,
    clientAddress: event.clientaddress,
    factor: factorOf(event),
    actor: event.actor?.kind ?? ActorKind.UNSPECIFIED,
    currentSession: event.sessionid !== "" && event.sessionid === currentSessionId,
  };
}
