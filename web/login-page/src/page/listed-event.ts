import type { MessageKey } from "@auth/i18n/catalogue.js";
import { text } from "./words.js";

/** One of the user's security events as auth/events lists it (docs/api-contract.md, "The user's security events"). */
export interface ListedEvent {
  id: string;
  type: string;
  time: string;
  outcome: "succeeded" | "failed";
  client_address: string | null;
  factor: string | null;
  actor: "user" | "operator" | "system";
  current_session: boolean;
}

/** The short label of each type the page knows. */
const labels: Partial<Record<string, MessageKey<"page">>> = {
  "auth.login.succeeded": "events.loginSucceeded",
  "auth.login.failed": "events.loginFailed",
  "auth.second_factor.failed": "events.secondFactorFailed",
  "auth.account.locked": "events.accountLocked",
  "auth.password.changed": "events.passwordChanged",
  "auth.contact.changed": "events.contactChanged",
  "auth.factor.enrolled": "events.factorEnrolled",
  "auth.factor.removed": "events.factorRemoved",
  "auth.recovery.started": "events.recoveryStarted",
  "auth.recovery.finished": "events.recoveryFinished",
  "auth.session.revoked": "events.sessionRevoked",
  "admin.factor.changed": "events.adminFactorChanged",
  "admin.user.changed": "events.adminUserChanged",
  "admin.session.revoked": "events.adminSessionRevoked",
};

/**
 * The event in a few words: one short label per type, the factor added or removed named (one the
 * page has no name for is a sign-in method), a changed address by its factor (the phone's codes, the
 * e-mail's links); a type the page does not know, by its name.
 */
export function eventLabel(event: ListedEvent): string {
  const label = labels[event.type];
  return label ? text(label, { factor: event.factor ?? "" }) : event.type;
}

/** What the list tells beside the label: a failure, this session, when, and from where. */
export function eventDetails(event: ListedEvent): string {
  const time = new Date(event.time);
  const parts = [
    event.outcome === "failed" ? text("events.failed") : "",
    event.current_session ? text("events.thisSession") : "",
    event.client_address
      ? text("events.whenFrom", { time, address: event.client_address })
      : text("events.when", { time }),
  ];
  return parts.filter((part) => part !== "").join(" ");
}
