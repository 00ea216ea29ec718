import { type EventOrigin, eventJson, newEvent } from "@auth/events";
import type { WriteEvents } from "@auth/kv";
import { ActorKind, Factor as EventFactor, Outcome } from "@auth/proto/events";
import { SessionState } from "@auth/proto/session";
import { authenticationOf, type Factor } from "../authentication.js";
import type { SessionRecord } from "./session-store.js";

/**
 * Who asks for a change, for the events it records (docs/decisions.md, "Security events"): the
 * call's origin (`eventOriginOf`), once the store knows whose session it is.
 */
export type OriginOf = (userId: string) => EventOrigin;

/** Why sessions end before their time, as auth.session.revoked tells it. */
export type EndReason =
  | "logout"
  | "ended_by_user"
  | "recovery"
  | "password_changed"
  /** Identity changed the user's password or factors (docs/security.md, "What ends a session"). */
  | "credentials_changed"
  /** A recovery session's last control answer was wrong or refused. */
  | "answers_spent";

/** Why sessions end, and who asked: an operator's end is admin.session.revoked, whatever the reason. */
export interface Ending {
  reason: EndReason;
  originOf: OriginOf;
}

/** The sessions an end is about: one, or (no session id) every other session of the user. */
interface Ended {
  companyId: string;
  userId: string;
  sessionId?: string;
}

const eventFactors: Record<Factor["kind"], EventFactor> = {
  password: EventFactor.PASSWORD,
  smsCode: EventFactor.SMS_CODE,
  appCode: EventFactor.APP_CODE,
  backupCode: EventFactor.BACKUP_CODE,
  federated: EventFactor.OAUTH,
  passkey: EventFactor.PASSKEY,
};

const recorded = (event: ReturnType<typeof newEvent>): WriteEvents => ({ events: [eventJson(event)] });

/**
 * auth.login.succeeded, for the write that stores a session as it becomes authorized (from
 * `from`, undefined for a session that starts): none for any other write.
 */
export function loginEvents(
  from: SessionState | undefined,
  next: SessionRecord,
  originOf: OriginOf,
): WriteEvents | undefined {
  if (next.state !== SessionState.AUTHORIZED || from === SessionState.AUTHORIZED) return undefined;
  const factors = next.factors ?? [];
  return recorded(
    newEvent("session", {
      type: "auth.login.succeeded",
      companyId: next.companyId,
      userId: next.userId,
      sessionId: next.sessionId,
      outcome: Outcome.SUCCEEDED,
      origin: originOf(next.userId),
      detail: {
        login: {
          methods: factors.map((factor) => eventFactors[factor.kind]),
          level: authenticationOf(factors).level,
        },
      },
    }),
  );
}

/**
 * The end of one session, or of every other session of its user in one event (all_of_user): for
 * the write that ends it, or the first of those that end them.
 */
export function endEvents(
  { companyId, userId, sessionId }: Ended,
  { reason, originOf }: Ending,
): WriteEvents {
  const origin = originOf(userId);
  const facts = { companyId, userId, sessionId, outcome: Outcome.SUCCEEDED, origin };
  if (origin.actor.kind === ActorKind.OPERATOR) {
    return recorded(
      newEvent("session", {
        ...facts,
        type: "admin.session.revoked",
        detail: {
          adminChange: {
            resource: "session",
            resourceId: sessionId ?? "",
            action: sessionId === undefined ? "revoked_all" : "revoked",
            fields: [],
          },
        },
      }),
    );
  }
  return recorded(
    newEvent("session", {
      ...facts,
      type: "auth.session.revoked",
      detail: { sessionRevoked: { reason, allOfUser: sessionId === undefined } },
    }),
  );
}
