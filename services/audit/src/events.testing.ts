import {
  type DetailField,
  type EventDetail,
  type EventOrigin,
  type EventType,
  eventCatalogue,
  eventJson,
  newEvent,
  systemOrigin,
} from "@auth/events";
import { ActorKind, type Event, Factor, Outcome } from "@auth/proto/events";
import { createLogger } from "@auth/runtime";

/** A detail of each kind, for the tests' events. */
const details: Record<DetailField, EventDetail> = {
  login: { login: { methods: [Factor.PASSWORD, Factor.APP_CODE], level: 2 } },
  factor: { factor: { factor: Factor.PASSKEY, reason: "", passkeyId: "" } },
  otpSent: { otpSent: { channel: "sms", purpose: "login" } },
  sessionRevoked: { sessionRevoked: { reason: "logout", allOfUser: false } },
  recovery: { recovery: { method: "question" } },
  disclaimer: { disclaimer: { codes: ["terms"] } },
  lockout: { lockout: { factor: Factor.SMS_CODE, until: new Date(0) } },
  adminChange: { adminChange: { resource: "user", resourceId: "r", action: "updated", fields: ["blocked"] } },
  smsRefused: { smsRefused: { reason: "breaker", region: "GB", prefix: "+44 909" } },
  contactChanged: { contactChanged: { kind: "email" } },
};

export const userOrigin = (userId: string): EventOrigin => ({
  actor: { kind: ActorKind.USER, id: userId, certificateSubject: "", certificateSha256: "" },
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  clientAddress: "203.0.113.9",
});

/** An event of the catalogue as its service would make it, with a detail of its kind. */
export function anEvent(
  type: EventType,
  facts: {
    companyId: string;
    userId?: string;
    sessionId?: string;
    time?: Date;
    origin?: EventOrigin;
    detail?: EventDetail;
  },
): Event {
  const entry: { sources: readonly string[]; detail?: DetailField } = eventCatalogue[type];
  const [source] = entry.sources as (typeof eventCatalogue)[EventType]["sources"];
  return newEvent(
    source,
    {
      type,
      companyId: facts.companyId,
      userId: facts.userId,
      sessionId: facts.sessionId,
      outcome: Outcome.SUCCEEDED,
      origin: facts.origin ?? systemOrigin,
      detail: facts.detail ?? (entry.detail === undefined ? undefined : details[entry.detail]),
    },
    facts.time,
  );
}

/** The events as the stream carries them. */
export const linesOf = (events: readonly Event[]) => events.map(eventJson);

/** A logger that keeps its lines, to read what was logged. */
export function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger("audit", "debug", { write: (line: string) => lines.push(line) });
  return { logger, lines };
}
