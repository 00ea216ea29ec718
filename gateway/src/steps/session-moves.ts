import { companyLimits } from "@auth/grpc-kit";
import { NotificationEvent, type User } from "@auth/proto/identity";
import { SecretKind, type Session, SessionState } from "@auth/proto/session";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";
import { type StateName, stateOfName } from "../endpoint/states.js";
import { assertTransition } from "../endpoint/transitions.js";
import type { DisclaimerObject } from "./disclaimers.js";
import { tellUser } from "./user-notices.js";

export interface MovedSession {
  token: string;
  session: Session;
}

export interface SessionChanges {
  profileMnemocode?: string;
  passwordChangeRequired?: boolean;
  /** The reserved check whose right secret the session moves or starts on: reported in the same call. */
  rightCheckId?: string;
}

export interface SessionMove extends SessionChanges {
  /** The session has just changed its user's password (after claimCredentialChange). */
  renewCredentialGeneration?: boolean;
}

export interface SessionStart extends SessionChanges {
  /**
   * No session while the user's budget of this kind is locked out (login, which checks no secret:
   * the kind its next step takes).
   */
  lockoutKind?: SecretKind;
  /** The user's credential generation when the password the session starts on was checked. */
  credentialGeneration?: string;
  /** The disclaimers the user owes, for the session's next step. */
  disclaimersRequired?: DisclaimerObject[];
}

export interface StartedSession extends MovedSession {
  /** Whether the user's next password needs a captcha, when the start was guarded. */
  captchaRequired: boolean;
}

/** The company's lifetime for a state, when it sets one. */
function lifetimeSeconds(context: FlowContext, state: StateName): number | undefined {
  const { preauthSessionSeconds, authorizedSessionSeconds } = context.company.policy;
  return (state === "authorized" ? authorizedSessionSeconds : preauthSessionSeconds) || undefined;
}

/** The company's absolute lifetime and inactivity timeout of a session (settled by identity). */
function sessionLimits(context: FlowContext) {
  const { sessionAbsoluteSeconds, sessionIdleSeconds } = context.company.policy;
  return {
    absoluteLifetimeSeconds: sessionAbsoluteSeconds || undefined,
    idleTimeoutSeconds: sessionIdleSeconds || undefined,
  };
}

/**
 * What the user is told of a session the service started or moved (docs/security.md,
 * "Notifications"): a sign-in from a device the user's known devices did not hold; the start of a
 * recovery by control question, which sends nothing (identity tells of a recovery by phone or
 * e-mail as its code or link is sent).
 */
function tellOf(context: FlowContext, answer: { session: Session; newDevice: boolean }, started: boolean) {
  const { session } = answer;
  if (answer.newDevice) tellUser(context, session.userId, NotificationEvent.NEW_DEVICE, session.userAgent);
  if (started && session.state === SessionState.RECOVERY_CHECKQUESTION)
    tellUser(context, session.userId, NotificationEvent.RECOVERY_STARTED);
}

/** Whose session starts: a user's, by the login ID presented; or nobody's yet (a login without a login ID). */
type Starter = { user: User; loginId: string } | { passkeyDiscovery: true };

async function create(
  context: FlowContext,
  starter: Starter,
  to: StateName,
  start: SessionStart,
): Promise<StartedSession> {
  assertTransition(context.operation, null, to);
  const created = await context.backends.session.createSession({
    companyId: context.company.id,
    ...("user" in starter
      ? { userId: starter.user.id, loginId: starter.loginId, passkeyDiscovery: false }
      : { userId: "", loginId: "", passkeyDiscovery: true }),
    state: stateOfName[to],
    profileMnemocode: start.profileMnemocode,
    passwordChangeRequired: start.passwordChangeRequired ?? false,
    lifetimeSeconds: lifetimeSeconds(context, to),
    lockoutKind: start.lockoutKind ?? SecretKind.UNSPECIFIED,
    credentialGeneration: start.credentialGeneration,
    disclaimersRequired: start.disclaimersRequired ?? [],
    rightCheckId: start.rightCheckId,
    userAgent: context.userAgent,
    clientAddress: context.clientAddress,
    deviceId: context.deviceId,
    ...sessionLimits(context),
    limits: companyLimits(context.company.policy),
  });
  if (!created.session) throw new Error("session service returned no session");
  tellOf(context, { session: created.session, newDevice: created.newDevice }, true);
  return { token: created.sessionToken, session: created.session, captchaRequired: created.captchaRequired };
}

/**
 * Does what must go with a session just started (sends a code); should that fail, the session is
 * revoked again: the client gets the error, and no session it cannot use is left.
 */
async function revokedUnless<Told>(
  context: FlowContext,
  started: StartedSession,
  then: (started: MovedSession) => Promise<Told>,
): Promise<StartedSession & Told> {
  try {
    return { ...started, ...(await then(started)) };
  } catch (error) {
    await context.backends.session.revokeSession({ sessionToken: started.token });
    throw error;
  }
}

/** Starts a session in the state the transition table allows this operation to start in. */
export function startSession(
  context: FlowContext,
  user: User,
  to: StateName,
  loginId: string,
  start: SessionStart = {},
): Promise<StartedSession> {
  return create(context, { user, loginId }, to, start);
}

/** Starts a session, then does what must go with it (sends a code), revoked again should that fail. */
export async function startSessionThen<Told>(
  context: FlowContext,
  user: User,
  to: StateName,
  loginId: string,
  start: SessionStart,
  then: (started: MovedSession) => Promise<Told>,
): Promise<StartedSession & Told> {
  return revokedUnless(context, await startSession(context, user, to, loginId, start), then);
}

/**
 * Starts a login without a login ID (docs/decisions.md, "Passkeys"): a session in checkpassword of
 * no user, until a move rests on a user-verified passkey's check; then does what must go with it
 * (the passkey's challenge), revoked again should that fail.
 */
export async function startPasskeyDiscovery<Told>(
  context: FlowContext,
  then: (started: MovedSession) => Promise<Told>,
): Promise<StartedSession & Told> {
  return revokedUnless(context, await create(context, { passkeyDiscovery: true }, "checkpassword", {}), then);
}

/** Moves the request's session on under a new token, as the transition table allows. */
export async function moveSession(
  context: SessionFlowContext,
  to: StateName,
  { renewCredentialGeneration = false, ...changes }: SessionMove = {},
): Promise<MovedSession> {
  assertTransition(context.operation, context.state, to);
  const advanced = await context.backends.session.advanceSession({
    sessionToken: context.token,
    fromState: context.session.state,
    toState: stateOfName[to],
    ...changes,
    lifetimeSeconds: lifetimeSeconds(context, to),
    ...sessionLimits(context),
    renewCredentialGeneration,
    // A request with an Idempotency-Key is answered the move again should its answer be lost.
    retryKey: context.retryKey,
    limits: companyLimits(context.company.policy),
  });
  if (!advanced.session) throw new Error("session service returned no session");
  tellOf(context, { session: advanced.session, newDevice: advanced.newDevice }, false);
  return { token: advanced.sessionToken, session: advanced.session };
}
