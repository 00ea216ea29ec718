import { type EventOrigin, eventJson, newEvent, type OriginOf } from "@auth/events";

import type { WriteEvents } from "@auth/kv";
import { ActorKind, Factor as EventFactor, Outcome } from "@auth/proto/events";
import { SessionState } from "@auth/proto/session";
import { authenticationOf, type Factor } from "../authentication.js";
import type { LockOut, SecretKind } from "./check-budget.js";
import type { SessionRecord } from "./session-store.js";

/** Why sessions end before their time, as auth.session.revoked tells it. */
export type EndReason =
  | "logout"
  | "ended_by_user"
  | "recovery"
  | "password_changed"
  /** Identity changed the user's password or factors (docs/security.md, "What ends a session"). */
  | "credentials_changed"
  /** A recovery session's last control answer was wrong or refused. */
  | "answers_spent"
  /** The user's newer sessions reached the company's max_sessions_per_user (docs/decisions.md, "Session cap"). */
  | "session_cap";

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

/** The factors of logins and of budgets, as events name them. */
const eventFactors: Record<Factor["kind"] | SecretKind, EventFactor> = {
  password: EventFactor.PASSWORD,
  smsCode: EventFactor.SMS_CODE,
  appCode: EventFactor.APP_CODE,
  backupCode: EventFactor.BACKUP_CODE,
  federated: EventFactor.OAUTH,
  passkey: EventFactor.PASSKEY,
  controlAnswer: EventFactor.RECOVERY_QUESTION,
};

/**
 * The recoveries whose sessions start in these states, as auth.recovery.* names their method. A
 * recovery by e-mail link is the recovery service's: its session starts in recovery-setpassword,
 * once the link was used, and records nothing here.
 */
const recoveryMethods: ReadonlyMap<SessionState, string> = new Map([
  [SessionState.RECOVERY_CHECKOTP, "sms"],
  [SessionState.RECOVERY_CHECKQUESTION, "question"],
]);

const recorded = (event: ReturnType<typeof newEvent>): WriteEvents => ({ events: [eventJson(event)] });

/**
 * The event of the write that stores a session as it starts (`from` undefined) or moves on from
 * `from`: auth.login.succeeded as it becomes authorized; auth.recovery.started as a recovery by
 * SMS code or control question starts, and auth.recovery.finished as it moves on to
 * recovery-setpassword (the gateway's move once its code or answer was right), as the recovery
 * service records a link's issue and use (docs/decisions.md, "Security events"). None for any
 * other write.
 */
export function stateEvents(
  from: SessionState | undefined,
  next: SessionRecord,
  originOf: OriginOf,
): WriteEvents | undefined {
  return loginEvents(from, next, originOf) ?? recoveryEvents(from, next, originOf);
}

function loginEvents(
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

function recoveryEvents(
  from: SessionState | undefined,
  next: SessionRecord,
  originOf: OriginOf,
): WriteEvents | undefined {
  const started = from === undefined;
  const method = recoveryMethods.get(started ? next.state : from);
  if (method === undefined || (!started && next.state !== SessionState.RECOVERY_SETPASSWORD))
    return undefined;
  return recorded(
    newEvent("session", {
      type: started ? "auth.recovery.started" : "auth.recovery.finished",
      companyId: next.companyId,
      userId: next.userId,
      sessionId: next.sessionId,
      outcome: Outcome.SUCCEEDED,
      origin: originOf(next.userId),
      detail: { recovery: { method } },
    }),
  );
}

/**
 * auth.account.locked, for the write that reports the wrong check which spent a user's budget of
 * its kind: by the suite, with the request's trace id and client address. None for a login ID's
 * budget: it names no account, and no event may name the login ID.
 */
export function lockoutEvents(lockOut: LockOut, origin: EventOrigin): WriteEvents | undefined {
  if (lockOut.userId === undefined) return undefined;
  return recorded(
    newEvent("session", {
      type: "auth.account.locked",
      companyId: lockOut.companyId,
      userId: lockOut.userId,
      // Of the wrong check that locked the user out.
      outcome: Outcome.FAILED,
      origin,
      detail: { lockout: { factor: eventFactors[lockOut.kind], until: new Date(lockOut.until) } },
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
