import { type Actor, ActorKind, Event, type Outcome } from "@auth/proto/events";
import { v7 as uuidv7 } from "uuid";
import {
  detailFields,
  type EventDetail,
  type EventSource,
  type EventType,
  eventCatalogue,
} from "./catalogue.js";

/** Where a request came from, as the service learned it from its authenticated caller. */
export interface EventOrigin {
  actor: Actor;
  /** The W3C trace id of the request; empty when unknown. */
  traceId: string;
  /** The end user's client address as the gateway saw it; empty for operators. */
  clientAddress: string;
}

/**
 * The origin of a change whose user the store learns only as it makes the change (whose code,
 * link or session it is): the call's origin (`eventOriginOf` of @auth/grpc-kit) for that user.
 */
export type OriginOf = (userId: string) => EventOrigin;

export const systemOrigin: EventOrigin = {
  actor: { kind: ActorKind.SYSTEM, id: "", certificateSubject: "", certificateSha256: "" },
  traceId: "",
  clientAddress: "",
};

export interface EventFacts {
  type: EventType;
  companyId: string;
  userId?: string;
  sessionId?: string;
  /** Defaults to the user id; a company's events name the resource ("api_key/<id>"). */
  subject?: string;
  outcome: Outcome;
  origin: EventOrigin;
  detail?: EventDetail;
}

/**
 * A new event of the catalogue, made by the service that commits the fact, at the moment it
 * commits it. Throws when the detail is not the one the catalogue names for the type: a
 * programming error, caught by the service's tests.
 */
export function newEvent(source: EventSource, facts: EventFacts, now: Date = new Date()): Event {
  const entry: { sources: readonly EventSource[]; detail?: string } = eventCatalogue[facts.type];
  if (!entry.sources.includes(source)) throw new Error(`${source} does not record ${facts.type}`);
  const given = facts.detail ? Object.keys(facts.detail)[0] : undefined;
  if (entry.detail !== given) {
    throw new Error(`${facts.type} carries ${entry.detail ?? "no detail"}, not ${given ?? "none"}`);
  }
  return {
    specversion: "1.0",
    // The library's own clock and counter: ids made in one process sort as they were made, even
    // within one millisecond (so "time, then id" is commit order for each source).
    id: uuidv7(),
    source: `auth-suite/${source}`,
    type: facts.type,
    time: now,
    subject: facts.subject ?? facts.userId ?? "",
    dataschema: "auth.events.v1",
    companyid: facts.companyId,
    userid: facts.userId ?? "",
    sessionid: facts.sessionId ?? "",
    traceid: facts.origin.traceId,
    clientaddress: facts.origin.clientAddress,
    outcome: facts.outcome,
    actor: facts.origin.actor,
    ...facts.detail,
  };
}

/** What CloudEvents' `data` holds: the fields that are not attributes (objects, not plain values). */
const dataFields = ["actor", ...detailFields] as const;

/**
 * The event as one line of JSON: CloudEvents' structured mode, as stored and published. The
 * attributes and extensions are the top level; `data` holds the actor and the detail, each in its
 * proto3 JSON form (docs/decisions.md, "Security events").
 */
export function eventJson(event: Event): string {
  const attributes = { ...(Event.toJSON(event) as Record<string, unknown>) };
  const data: Record<string, unknown> = {};
  for (const field of dataFields) {
    if (field in attributes) data[field] = attributes[field];
    delete attributes[field];
  }
  return JSON.stringify({ ...attributes, datacontenttype: "application/json", data });
}

export function eventFromJson(json: string): Event {
  const { data, datacontenttype: _, ...attributes } = JSON.parse(json);
  return Event.fromJSON({ ...attributes, ...data });
}
