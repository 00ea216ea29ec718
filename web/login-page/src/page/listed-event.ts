import { texts } from "./texts.js";
import { shownTime } from "./time.js";

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

const words = texts.events;

const factorName = (event: ListedEvent): string =>
  (event.factor && words.factors[event.factor]) || words.someFactor;

/** The event in a few words: one short label per type; a type the page does not know, by its name. */
export function eventLabel(event: ListedEvent): string {
  if (event.type === "auth.factor.enrolled") return words.factorAdded(factorName(event));
  if (event.type === "auth.factor.removed") return words.factorRemoved(factorName(event));
  return words.labels[event.type] ?? event.type;
}

/** What the list tells beside the label: a failure, this session, when, and from where. */
export function eventDetails(event: ListedEvent): string {
  const parts = [
    event.outcome === "failed" ? words.failed : "",
    event.current_session ? words.thisSession : "",
    words.when(shownTime(event.time), event.client_address),
  ];
  return parts.filter((part) => part !== "").join(" ");
}
