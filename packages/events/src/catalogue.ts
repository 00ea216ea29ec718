import type { Event } from "@auth/proto/events";

/** The services that commit facts, as an event's `source` names them. */
export type EventSource = "identity" | "session" | "otp" | "recovery" | "disclaimer" | "audit";

/** The fields of `Event` that hold a type's detail (one oneof in the contract). */
export const detailFields = [
  "login",
  "factor",
  "otpSent",
  "sessionRevoked",
  "recovery",
  "disclaimer",
  "lockout",
  "adminChange",
  "smsRefused",
  "contactChanged",
] as const;
export type DetailField = (typeof detailFields)[number];

/** One detail: exactly the field the catalogue names for the event's type. */
export type EventDetail = { [F in DetailField]: { [K in F]: NonNullable<Event[K]> } }[DetailField];

interface CatalogueEntry {
  /** The services that record this type, where the fact is committed. */
  sources: readonly EventSource[];
  /** The detail every event of the type carries; none when undefined. */
  detail?: DetailField;
  /** One line for docs/operations.md, "Security events". */
  meaning: string;
}

/**
 * Every event type, in one table (docs/operations.md, "Security events", lists the same). A type
 * is added here first; `newEvent` refuses a type that is not.
 */
export const eventCatalogue = {
  "auth.login.succeeded": {
    sources: ["session"],
    detail: "login",
    meaning: "A session became authorized: every factor the company asks for has passed.",
  },
  "auth.login.failed": {
    sources: ["identity"],
    detail: "factor",
    meaning: "A first factor (password, or a passkey without a password) was compared and was wrong.",
  },
  "auth.second_factor.passed": {
    sources: ["identity", "otp"],
    detail: "factor",
    meaning: "A second factor (SMS code, app code, backup code, passkey) was right.",
  },
  "auth.second_factor.failed": {
    sources: ["identity", "otp"],
    detail: "factor",
    meaning: "A second factor was compared and was wrong.",
  },
  "auth.account.locked": {
    sources: ["session"],
    detail: "lockout",
    meaning: "A factor's budget is spent: no further check until the time given.",
  },
  "auth.otp.sent": {
    sources: ["otp"],
    detail: "otpSent",
    meaning: "A one-time code was sent (the code is never in the event).",
  },
  "auth.sms.refused": {
    sources: ["otp"],
    detail: "smsRefused",
    meaning:
      "A code was not sent: the company's limits against SMS pumping refused it (the number's region, its prefix's breaker, a budget of the hour); the number is never in the event, its region and prefix are.",
  },
  "auth.password.changed": {
    sources: ["identity"],
    meaning: "The user's password was set: changed, reset by recovery, or set on first login.",
  },
  "auth.contact.changed": {
    sources: ["identity"],
    detail: "contactChanged",
    meaning:
      "The user's phone or e-mail was changed by the user, confirmed by a code or a link (which kind is in the event; the address never is).",
  },
  "auth.factor.enrolled": {
    sources: ["identity"],
    detail: "factor",
    meaning: "The user added a factor: an authenticator app, a passkey, a new set of backup codes.",
  },
  "auth.factor.removed": {
    sources: ["identity"],
    detail: "factor",
    meaning: "The user removed a factor.",
  },
  "auth.recovery.started": {
    sources: ["recovery", "session"],
    detail: "recovery",
    meaning:
      "Access recovery began: an e-mail link was issued (recovery), or a recovery session by SMS code or control question started (session).",
  },
  "auth.recovery.finished": {
    sources: ["recovery", "session"],
    detail: "recovery",
    meaning:
      "Access recovery succeeded: its e-mail link was used (recovery), or its SMS code or control answer was right (session).",
  },
  "auth.session.revoked": {
    sources: ["session"],
    detail: "sessionRevoked",
    meaning: "A session (or every session of the user) ended before its time.",
  },
  "auth.disclaimer.accepted": {
    sources: ["disclaimer"],
    detail: "disclaimer",
    meaning: "The user accepted the current versions of the named disclaimers.",
  },
  "admin.company.changed": {
    sources: ["identity"],
    detail: "adminChange",
    meaning: "An operator created, renamed, suspended or resumed a company.",
  },
  "admin.policy.changed": {
    sources: ["identity"],
    detail: "adminChange",
    meaning: "An operator changed a company's policy (the names of the changed fields are listed).",
  },
  "admin.api_key.changed": {
    sources: ["identity"],
    detail: "adminChange",
    meaning: "An operator created, rotated or revoked an API key.",
  },
  "admin.user.changed": {
    sources: ["identity"],
    detail: "adminChange",
    meaning: "An operator created, changed, blocked or deleted a user.",
  },
  "admin.factor.changed": {
    sources: ["identity"],
    detail: "adminChange",
    meaning: "An operator removed or reset a user's factor (a passkey, the app, backup codes).",
  },
  "admin.disclaimer.changed": {
    sources: ["disclaimer"],
    detail: "adminChange",
    meaning: "An operator created, published a version of, or deactivated a disclaimer.",
  },
  "admin.session.revoked": {
    sources: ["session"],
    detail: "adminChange",
    meaning: "An operator revoked a session or every session of a user.",
  },
  "admin.webhook.changed": {
    sources: ["audit"],
    detail: "adminChange",
    meaning: "An operator created, changed, deleted a webhook, or rotated its signing secret.",
  },
  "admin.retention.changed": {
    sources: ["audit"],
    detail: "adminChange",
    meaning: "An operator changed how long the company's events are kept.",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type EventType = keyof typeof eventCatalogue;
