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

/** What an added or removed factor is called. */
const factorNames: Partial<Record<string, string>> = {
  password: "Password",
  sms_code: "Phone for codes",
  app_code: "Authenticator app",
  backup_code: "Backup codes",
  passkey: "Passkey",
  recovery_question: "Control question",
};

const labels: Partial<Record<string, (event: ListedEvent) => string>> = {
  "auth.login.succeeded": () => "Signed in",
  "auth.login.failed": () => "Sign-in failed",
  "auth.second_factor.failed": () => "Second sign-in step failed",
  "auth.account.locked": () => "Account locked",
  "auth.password.changed": () => "Password changed",
  "auth.factor.enrolled": (event) => `${factorName(event)} added`,
  "auth.factor.removed": (event) => `${factorName(event)} removed`,
  "auth.recovery.started": () => "Recovery started",
  "auth.recovery.finished": () => "Access recovered",
  "auth.session.revoked": () => "Session ended",
  "admin.factor.changed": () => "Sign-in methods changed by an administrator",
  "admin.user.changed": () => "Account changed by an administrator",
  "admin.session.revoked": () => "Session ended by an administrator",
};

const factorName = (event: ListedEvent): string =>
  (event.factor && factorNames[event.factor]) || "Sign-in method";

/** The event in a few words: one short label per type; a type the page does not know, by its name. */
export function eventLabel(event: ListedEvent): string {
  return labels[event.type]?.(event) ?? event.type;
}

/** A time of the events' list, in the browser's locale and zone. */
const eventTimes = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export const eventTime = (timestamp: string): string => eventTimes.format(new Date(timestamp));

/** What the list tells beside the label: a failure, this session, when, and from where. */
export function eventDetails(event: ListedEvent): string {
  const parts = [
    event.outcome === "failed" ? "Failed." : "",
    event.current_session ? "This session." : "",
    `${eventTime(event.time)}${event.client_address ? `, from ${event.client_address}` : ""}.`,
  ];
  return parts.filter((part) => part !== "").join(" ");
}
