import { AuthError } from "@auth/errors";
import type { OriginOf } from "@auth/events";
import {
  type AsyncService,
  type CallContext,
  eventOriginOf,
  implement,
  messageSchema,
  parseRequest,
} from "@auth/grpc-kit";
import type { Counter } from "@auth/kv";
import {
  type AdvanceSessionRequest,
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  type ClaimCredentialChangeRequest,
  type CompanyLimits,
  type CreateSessionRequest,
  type EndOwnSessionsRequest,
  type ForgetFailedChecksRequest,
  type GetCheckBudgetRequest,
  type GetCredentialChangeRequest,
  GetCredentialChangeResponse,
  type IntrospectSessionRequest,
  type IssuePasskeyChallengeRequest,
  type ListOwnSessionsRequest,
  type ListUserSessionsRequest,
  PasskeyCeremony,
  type PasskeySession,
  type RecordFederatedLoginRequest,
  type RecordPasskeyProofRequest,
  type ReportSecretCheckRequest,
  type ReserveSecretCheckRequest,
  type ReserveSecretCheckResponse,
  type RevokeSessionRequest,
  type RevokeUserSessionsRequest,
  SecretKind,
  type Session,
  SessionServiceService,
  SessionState,
  type TakePasskeyChallengeRequest,
  TokenStatus,
} from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { assertMayReserve, sessionAccess } from "./access.js";
import { authenticationOf } from "./authentication.js";
import type {
  CheckBudget,
  Holder,
  SecretKind as Kind,
  LockOut,
  PendingRight,
  ReserveOutcome,
  RightCheck,
  SessionTurn,
  Subject,
} from "./store/check-budget.js";
import { deviceUseOf, type KnownDevices } from "./store/known-devices.js";
import type { PasskeyChallenges } from "./store/passkey-challenges.js";
import type { Ending } from "./store/session-events.js";
import { idleEndOf, type SessionRecord, type SessionStore } from "./store/session-store.js";

const state = z
  .enum(SessionState)
  .refine((s) => s !== SessionState.UNSPECIFIED && s !== SessionState.UNRECOGNIZED, {
    message: "must be a session state",
  });
const id = z.string().min(1, "is required").max(200);
const token = z.string().max(512);
const lifetime = z
  .number()
  .int()
  .min(1)
  .max(30 * 24 * 3600)
  .optional();

const toSession = (record: SessionRecord, now: number): Session => ({
  sessionId: record.sessionId,
  companyId: record.companyId,
  userId: record.userId,
  state: record.state,
  loginId: record.loginId,
  profileMnemocode: record.profileMnemocode,
  passwordChangeRequired: record.passwordChangeRequired,
  changeRetryKey: record.changeClaim?.retryKey,
  disclaimersRequired: record.disclaimersRequired ?? [],
  createdAt: new Date(record.createdAt),
  expiresAt: new Date(record.expiresAt),
  userAgent: record.userAgent ?? "",
  clientAddress: record.clientAddress ?? "",
  lastSeenAt: new Date(record.lastSeenAt ?? record.createdAt),
  absoluteExpiresAt: optionalDate(record.absoluteExpiresAt),
  idleExpiresAt: optionalDate(idleEndOf(record)),
  ageSeconds: Math.max(0, Math.floor((now - record.createdAt) / 1000)),
  authentication: authenticationOf(record.factors ?? []),
});

export const optionalDate = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));

/** The company's limits, as its caller sends them (docs/security.md, "The limits a caller sends"). */
const count = z.number().int().min(0).max(1_000_000);
const companyLimits = z.object(
  {
    captchaAfterFailures: count,
    lockoutAfterFailures: count.min(1),
    failureWindowSeconds: count.min(1),
    newDeviceNoticeDays: count.min(1),
    maxSessionsPerUser: count,
  },
  "is required",
) satisfies z.ZodType<CompanyLimits>;

/** The company's absolute lifetime and inactivity timeout, when it sets them. */
const limits = {
  absoluteLifetimeSeconds: lifetime,
  idleTimeoutSeconds: lifetime,
};

/** The requests' schemas, built once. */
const checkId = z.string().min(1).max(100);
/** A reserved check whose secret proved right, reported in the call that rests on it. */
const rightCheckId = checkId.optional();
const kinds: Partial<Record<SecretKind, Kind>> = {
  [SecretKind.PASSWORD]: "password",
  [SecretKind.SMS_CODE]: "smsCode",
  [SecretKind.APP_CODE]: "appCode",
  [SecretKind.BACKUP_CODE]: "backupCode",
  [SecretKind.PASSKEY]: "passkey",
  [SecretKind.CONTROL_ANSWER]: "controlAnswer",
};
/** A kind of secret; undefined when UNSPECIFIED. */
const secretKind = z.enum(SecretKind).transform((kind, context) => {
  const known = kinds[kind];
  if (!known && kind !== SecretKind.UNSPECIFIED)
    context.addIssue({ code: "custom", message: "must be a kind of secret" });
  return known;
});
const createSessionRequest = messageSchema<CreateSessionRequest>()(
  z
    .object({
      companyId: id,
      // Empty only for a password-free login's session (passkey_discovery), checked below.
      userId: id.or(z.literal("")),
      state,
      loginId: z.string().max(512),
      profileMnemocode: z.string().optional(),
      passwordChangeRequired: z.boolean(),
      lifetimeSeconds: lifetime,
      lockoutKind: secretKind,
      credentialGeneration: z.string().max(100).optional(),
      disclaimersRequired: z
        .array(
          z.object({
            code: z.string().max(200),
            title: z.string().max(1_000),
            description: z.string().max(20_000),
            link: z.string().max(2_000),
          }),
        )
        .max(100),
      rightCheckId,
      // Client input: the store strips and caps what it keeps (shownUserAgent).
      userAgent: z.string().max(16_384),
      clientAddress: z.string().max(100),
      ...limits,
      passkeyDiscovery: z.boolean(),
      // Client input: one of another shape is taken as absent (deviceIdHashOf), never refused.
      deviceId: z.string().max(16_384),
      limits: companyLimits,
    })
    // A session of no user: the store takes only a start in checkpassword on no check.
    .refine((given) => (given.userId === "") === given.passkeyDiscovery, {
      message: "user_id is required, and empty for passkey_discovery",
      path: ["userId"],
    })
    .refine((given) => !given.passkeyDiscovery || given.loginId === "", {
      message: "must be empty for passkey_discovery",
      path: ["loginId"],
    }),
);
const introspectSessionRequest = messageSchema<IntrospectSessionRequest>()(z.object({ sessionToken: token }));
/** Names a request with an Idempotency-Key (the gateway derives it): docs/decisions.md, "Idempotency-Key". */
const retryKey = z.string().min(1).max(200).optional();
const advanceSessionRequest = messageSchema<AdvanceSessionRequest>()(
  z.object({
    sessionToken: token,
    fromState: state,
    toState: state,
    profileMnemocode: z.string().optional(),
    passwordChangeRequired: z.boolean().optional(),
    lifetimeSeconds: lifetime,
    renewCredentialGeneration: z.boolean(),
    rightCheckId,
    retryKey,
    ...limits,
    limits: companyLimits,
  }),
);
const revokeSessionRequest = messageSchema<RevokeSessionRequest>()(
  z.object({ sessionToken: token, retryKey }),
);
const claimCredentialChangeRequest = messageSchema<ClaimCredentialChangeRequest>()(
  z.object({ sessionToken: token, retryKey }),
);
const getCredentialChangeRequest = messageSchema<GetCredentialChangeRequest>()(
  z.object({ sessionToken: token }),
);
const revokeUserSessionsRequest = messageSchema<RevokeUserSessionsRequest>()(
  z.object({ companyId: id, userId: id, retryKey }),
);
const listOwnSessionsRequest = messageSchema<ListOwnSessionsRequest>()(z.object({ sessionToken: token }));
const endOwnSessionsRequest = messageSchema<EndOwnSessionsRequest>()(
  z
    .object({ sessionToken: token, sessionId: id.optional(), others: z.literal(true).optional() })
    .refine(
      (given) => (given.sessionId === undefined) !== (given.others === undefined),
      "exactly one of session_id and others (true)",
    )
    .transform(({ sessionToken, sessionId, others }) => ({
      sessionToken,
      target: others ? ({ others } as const) : { sessionId: sessionId ?? "" },
    })),
);
const listUserSessionsRequest = messageSchema<ListUserSessionsRequest>()(
  z.object({ companyId: id, userId: id }),
);
/** A user, or a login ID that names none: exactly one of the two. */
const subject = z
  .object({ userId: id.optional(), loginId: z.string().min(1).max(512).optional() })
  .refine(
    (given) => (given.userId === undefined) !== (given.loginId === undefined),
    "exactly one of user_id and login_id",
  )
  .transform(
    (given): Subject =>
      given.userId !== undefined ? { userId: given.userId } : { loginId: given.loginId ?? "" },
  );
const forgetFailedChecksRequest = messageSchema<ForgetFailedChecksRequest>()(
  z.object({ companyId: id, subject }),
);
const getCheckBudgetRequest = messageSchema<GetCheckBudgetRequest>()(
  z.object({
    companyId: id,
    subject,
    kind: secretKind.transform((kind) => kind ?? "password"),
    limits: companyLimits,
  }),
);
const reserveSecretCheckRequest = messageSchema<ReserveSecretCheckRequest>()(
  z.object({
    companyId: id,
    subject,
    kind: secretKind.transform((kind, context) => {
      if (!kind) context.addIssue({ code: "custom", message: "must be a kind of secret" });
      return kind ?? "password";
    }),
    captcha: z.enum(
      [CaptchaVerdict.UNSPECIFIED, CaptchaVerdict.PASSED, CaptchaVerdict.FAILED],
      "must be a captcha verdict",
    ),
    limits: companyLimits,
    // Not empty: every request with the same token waits for the one check under way.
    sessionToken: token.min(1).optional(),
  }),
);
const results = {
  [CheckResult.RIGHT]: "right",
  [CheckResult.WRONG]: "wrong",
  [CheckResult.UNCHECKED]: "unchecked",
} as const;
const reportSecretCheckRequest = messageSchema<ReportSecretCheckRequest>()(
  z.object({
    companyId: id,
    checkId,
    result: z.enum(
      [CheckResult.RIGHT, CheckResult.WRONG, CheckResult.UNCHECKED],
      "must be RIGHT, WRONG or UNCHECKED",
    ),
  }),
);

const recordFederatedLoginRequest = messageSchema<RecordFederatedLoginRequest>()(
  z.object({ companyId: id, userId: id, authenticatedAt: z.date().optional(), multiFactor: z.boolean() }),
);
const ceremony = z.enum(
  [PasskeyCeremony.LOGIN, PasskeyCeremony.REGISTRATION],
  "must be LOGIN or REGISTRATION",
);
const issuePasskeyChallengeRequest = messageSchema<IssuePasskeyChallengeRequest>()(
  z.object({ sessionToken: token, ceremony }),
);
const takePasskeyChallengeRequest = messageSchema<TakePasskeyChallengeRequest>()(
  z.object({ sessionToken: token, ceremony }),
);
const recordPasskeyProofRequest = messageSchema<RecordPasskeyProofRequest>()(
  z.object({ companyId: id, checkId, userVerified: z.boolean(), backedUp: z.boolean() }),
);

/** The session a challenge is bound to, as identity needs it: whose it is and where it stands. */
const toPasskeySession = ({ sessionId, companyId, userId, state }: SessionRecord): PasskeySession => ({
  sessionId,
  companyId,
  userId,
  state,
});

const outcomes: Record<ReserveOutcome["outcome"], CheckOutcome> = {
  allowed: CheckOutcome.ALLOWED,
  lockedOut: CheckOutcome.LOCKED_OUT,
  captchaNeeded: CheckOutcome.CAPTCHA_MISSING,
  sessionSpent: CheckOutcome.SESSION_SPENT,
  sessionBusy: CheckOutcome.SESSION_BUSY,
};

const reserveResponse = (
  reserved: ReserveOutcome,
  captchaSent: boolean,
  credentialGeneration: string,
): ReserveSecretCheckResponse => ({
  outcome:
    reserved.outcome === "captchaNeeded" && captchaSent
      ? CheckOutcome.CAPTCHA_INVALID
      : outcomes[reserved.outcome],
  checkId: reserved.outcome === "allowed" ? reserved.checkId : "",
  retryAfterSeconds: reserved.outcome === "lockedOut" ? reserved.retryAfterSeconds : 0,
  captchaRequired: reserved.captchaRequired,
  credentialGeneration,
});

export interface SessionDependencies {
  sessions: SessionStore;
  budget: CheckBudget;
  challenges: PasskeyChallenges;
  /** The devices each user signed in from (docs/decisions.md, "Known devices"). */
  devices: KnownDevices;
  /** The SHA-256 (hex) of the admin token operators present. */
  adminTokenSha256: string;
}

/** The call's origin for the events of the sessions it changes (docs/decisions.md, "Security events"). */
const originOf =
  (context: CallContext): OriginOf =>
  (userId) =>
    eventOriginOf(context, userId);

/**
 * How a caller ends every session of a user: identity, as it changed the user's password or
 * factors, by the suite (identity's own event names who changed them); the gateway, as the user's
 * recovery set a new password. An operator's end is admin.session.revoked.
 */
const userEnding = (context: CallContext): Ending =>
  context.caller === "identity"
    ? { reason: "credentials_changed", originOf: () => eventOriginOf(context) }
    : { reason: "recovery", originOf: originOf(context) };

/** A recovery session's last control answer, wrong or refused, ends it. */
const answersSpent = (context: CallContext): Ending => ({
  reason: "answers_spent",
  originOf: originOf(context),
});

export function sessionService(
  { sessions, budget, challenges, devices, adminTokenSha256 }: SessionDependencies,
  logger: Logger,
) {
  /** Whose budgets a subject's checks spend: a user's, in the user's credential generation now. */
  const holderOf = async (companyId: string, subject: Subject): Promise<Holder> => ({
    companyId,
    subject,
    credentialGeneration: "userId" in subject ? await sessions.generationOf(companyId, subject.userId) : "",
  });

  /** A right check to rest on, or auth.token.invalid. */
  const restingOn = <Right>(right: Right | undefined, lockedOut: LockOut | undefined): Right => {
    // A passkey said right without identity's proof: only a caller's fault can lock out here, and
    // its call fails, so no one tells the user; the event is recorded all the same.
    if (lockedOut) metrics.lockouts.inc();
    if (!right) throw new AuthError("auth.token.invalid", { detail: "no reserved check to rest on" });
    return right;
  };

  /**
   * Reports the right check a session starts on, in the same call. A check that is none waiting
   * for its report (unknown, expired, reported already) is refused: a session's factors rest on
   * checks the session service saw, never on a caller's word.
   */
  const reportRight = async (checkId: string, context: CallContext): Promise<RightCheck> => {
    const { right, lockedOut } = await budget.report(checkId, "right", eventOriginOf(context));
    return restingOn(right, lockedOut);
  };

  /** As reportRight, but the report is left to the move's step (SessionStore.advance). */
  const readRight = async (checkId: string, context: CallContext): Promise<PendingRight> => {
    const { pending, lockedOut } = await budget.readRight(checkId, eventOriginOf(context));
    return restingOn(pending, lockedOut);
  };

  /** Counts a lock-out a wrong check made; whose user the reporter tells. */
  const lockOut = (lockedOut: LockOut | undefined): string => {
    if (!lockedOut) return "";
    metrics.lockouts.inc();
    return lockedOut.userId ?? "";
  };

  /** A session's authorization, however it comes: created authorized, or moved to it from another state. */
  const signsIn = (from: SessionState | undefined, to: SessionState) =>
    to === SessionState.AUTHORIZED && from !== SessionState.AUTHORIZED;

  /**
   * A sign-in's device, recorded among the user's known devices in the step that writes the session
   * (docs/decisions.md, "Known devices"); nothing for any other start or move.
   */
  const signIn = (from: SessionState | undefined, to: SessionState, limits: CompanyLimits) =>
    signsIn(from, to)
      ? { recorded: (session: SessionRecord) => devices.recording(session, limits.newDeviceNoticeDays) }
      : {};

  /**
   * What follows a session's authorization, once written (signIn): the user's oldest sessions beyond
   * the company's cap end (docs/decisions.md, "Session cap"). True when the device was not known,
   * for the caller to tell the user (docs/decisions.md, "Known devices").
   */
  const authorized = async (
    from: SessionState | undefined,
    { session, recorded }: { session: SessionRecord; recorded: boolean[] },
    limits: CompanyLimits,
    context: CallContext,
  ): Promise<boolean> => {
    if (!signsIn(from, session.state)) return false;
    if (limits.maxSessionsPerUser > 0)
      await sessions.endOldest(session, limits.maxSessionsPerUser, {
        reason: "session_cap",
        originOf: originOf(context),
      });
    // None recorded: the answer of an earlier move (a retry), whose device was recorded then.
    return recorded.length > 0 && deviceUseOf(recorded) === "new";
  };

  /** Reserves a check in the turn of its session, when it has one. */
  const reserve = async (
    input: z.output<typeof reserveSecretCheckRequest>,
    turn: SessionTurn | undefined,
    holder: Holder,
    context: CallContext,
  ): Promise<{ reserved: ReserveOutcome; credentialGeneration: string }> => {
    // A control answer spends the budget of its recovery session too.
    let session: { sessionId: string; ttlMs: number } | undefined;
    if (input.kind === "controlAnswer" && input.sessionToken !== undefined) {
      const found = await sessions.introspect(input.sessionToken);
      if (found.status !== "active")
        return { reserved: { outcome: "sessionSpent", captchaRequired: false }, credentialGeneration: "" };
      session = {
        sessionId: found.session.sessionId,
        ttlMs: Math.max(1_000, found.session.expiresAt - Date.now()),
      };
    }
    const captchaPassed = input.kind === "password" && input.captcha === CaptchaVerdict.PASSED;
    const reserved = await budget.reserve(
      { ...holder, kind: input.kind, captchaPassed, session, turn },
      input.limits,
    );
    if (reserved.endSession) await sessions.end(reserved.endSession, answersSpent(context));
    return { reserved, credentialGeneration: holder.credentialGeneration };
  };

  const methods: AsyncService<typeof SessionServiceService> = {
    async createSession(request, context) {
      const { lockoutKind, rightCheckId, passkeyDiscovery, limits, ...input } = parseRequest(
        createSessionRequest,
        request,
      );
      // The right check is reported first: the failures it forgets include the one it counted,
      // which may have been the budget's last. Then the user's generation (given to the session, not
      // read again), and the lock-out it names, read in the step that writes the session
      // (docs/performance.md, "Redis round trips per login"); a session of no user (a passkey
      // discovery's) has no generation, nor a budget to be locked out of.
      const rightCheck = rightCheckId === undefined ? undefined : await reportRight(rightCheckId, context);
      const holder = passkeyDiscovery ? undefined : await holderOf(input.companyId, { userId: input.userId });
      const budgetRead = holder && lockoutKind !== undefined ? { holder, kind: lockoutKind } : undefined;
      const lockOut = budgetRead && {
        ...budget.lockOutCounter(budgetRead.holder, budgetRead.kind, limits),
        refused: async (counter: Counter) =>
          new AuthError("auth.restricted", {
            retryAfterSeconds: (await budget.statusOf(budgetRead.holder, budgetRead.kind, limits, counter))
              .retryAfterSeconds,
            detail: "user locked out",
          }),
      };
      const created = await sessions.create(
        { ...input, rightCheck, lockOut, ...signIn(undefined, input.state, limits) },
        originOf(context),
        holder?.credentialGeneration,
      );
      const status =
        budgetRead &&
        created.counter &&
        (await budget.statusOf(budgetRead.holder, budgetRead.kind, limits, created.counter));
      return {
        sessionToken: created.token,
        session: toSession(created.session, sessions.now()),
        captchaRequired: status ? status.captchaRequired : false,
        newDevice: await authorized(undefined, created, limits, context),
      };
    },
    async introspectSession(request) {
      const result = await sessions.introspect(parseRequest(introspectSessionRequest, request).sessionToken);
      switch (result.status) {
        case "active":
          return { status: TokenStatus.ACTIVE, session: toSession(result.session, sessions.now()) };
        case "expired":
          return { status: TokenStatus.EXPIRED };
        case "invalid":
          return { status: TokenStatus.INVALID };
      }
    },
    async advanceSession(request, context) {
      const input = parseRequest(advanceSessionRequest, request);
      const { sessionToken, fromState, toState, rightCheckId, retryKey, limits, ...changes } = input;
      // Read while the session is, reported in the move's step (docs/performance.md, "Redis round
      // trips per login").
      const report = rightCheckId === undefined ? undefined : () => readRight(rightCheckId, context);
      const advanced = await sessions.advance(
        sessionToken,
        fromState,
        toState,
        { ...changes, report, ...signIn(fromState, toState, limits) },
        originOf(context),
        retryKey,
      );
      return {
        sessionToken: advanced.token,
        session: toSession(advanced.session, sessions.now()),
        newDevice: await authorized(fromState, advanced, limits, context),
      };
    },
    async revokeSession(request, context) {
      const input = parseRequest(revokeSessionRequest, request);
      return { revoked: await sessions.revoke(input.sessionToken, originOf(context), input.retryKey) };
    },
    async claimCredentialChange(request, context) {
      const input = parseRequest(claimCredentialChangeRequest, request);
      return sessions.claimCredentialChange(input.sessionToken, originOf(context), input.retryKey);
    },
    async getCredentialChange(request) {
      const { sessionToken } = parseRequest(getCredentialChangeRequest, request);
      const change = await sessions.credentialChangeOf(sessionToken);
      // Nothing told: every field its default.
      if (!change) return GetCredentialChangeResponse.fromJSON({});
      const { claimId, ...session } = change;
      return { ...session, claimed: claimId !== undefined, claimId: claimId ?? "" };
    },
    async revokeUserSessions(request, context) {
      const input = parseRequest(revokeUserSessionsRequest, request);
      return {
        revoked: await sessions.revokeUser(
          input.companyId,
          input.userId,
          userEnding(context),
          input.retryKey,
        ),
      };
    },
    async listOwnSessions(request) {
      const { current, sessions: own } = await sessions.listOwn(
        parseRequest(listOwnSessionsRequest, request).sessionToken,
      );
      // The user's own list: neither login IDs nor the gateway's retry keys.
      return {
        sessions: own.map((record) => ({
          ...toSession(record, sessions.now()),
          loginId: "",
          changeRetryKey: undefined,
        })),
        currentSessionId: current.sessionId,
      };
    },
    async endOwnSessions(request, context) {
      const { sessionToken, target } = parseRequest(endOwnSessionsRequest, request);
      return { ended: await sessions.endOwn(sessionToken, target, originOf(context)) };
    },
    async listUserSessions(request) {
      const input = parseRequest(listUserSessionsRequest, request);
      // An operator's list: the gateway's retry keys are the gateway's.
      const listed = await sessions.listUser(input.companyId, input.userId);
      return {
        sessions: listed.map((record) => ({
          ...toSession(record, sessions.now()),
          changeRetryKey: undefined,
        })),
      };
    },
    async getCheckBudget(request) {
      const input = parseRequest(getCheckBudgetRequest, request);
      return budget.status(await holderOf(input.companyId, input.subject), input.kind, input.limits);
    },
    async reserveSecretCheck(request, context) {
      const input = parseRequest(reserveSecretCheckRequest, request);
      assertMayReserve(context, input.kind);
      const captchaSent = input.captcha !== CaptchaVerdict.UNSPECIFIED;
      // The holder's generation is read with the turn (docs/performance.md, "Redis round trips per
      // login"), before the secret is compared: a password change after this ends the session the
      // check starts. Its failure is the reservation's, which gives the turn back; a busy session
      // does not wait for it.
      const holder = holderOf(input.companyId, input.subject);
      holder.catch(() => {});
      // One check at a time per session, taken before anything is spent, a captcha included.
      const turn = input.sessionToken === undefined ? undefined : await budget.takeTurn(input.sessionToken);
      if (input.sessionToken !== undefined && turn === undefined)
        return reserveResponse({ outcome: "sessionBusy", captchaRequired: false }, captchaSent, "");
      let allowed = false;
      try {
        const { reserved, credentialGeneration } = await reserve(input, turn, await holder, context);
        allowed = reserved.outcome === "allowed";
        return reserveResponse(reserved, captchaSent, credentialGeneration);
      } finally {
        // An allowed check keeps the turn until its report; any other gives it back now.
        if (turn && !allowed) await budget.endTurn(turn);
      }
    },
    async forgetFailedChecks(request) {
      const input = parseRequest(forgetFailedChecksRequest, request);
      await budget.forget(await holderOf(input.companyId, input.subject));
      return {};
    },
    async reportSecretCheck(request, context) {
      const input = parseRequest(reportSecretCheckRequest, request);
      const { endSession, lockedOut } = await budget.report(
        input.checkId,
        results[input.result],
        eventOriginOf(context),
      );
      const lockedOutUserId = lockOut(lockedOut);
      if (endSession) await sessions.end(endSession, answersSpent(context));
      return { sessionEnded: endSession !== undefined, lockedOutUserId };
    },
    async recordFederatedLogin(request) {
      const { authenticatedAt, ...login } = parseRequest(recordFederatedLoginRequest, request);
      return {
        checkId: await budget.recordFederatedLogin({ ...login, authenticatedAt: authenticatedAt?.getTime() }),
      };
    },
    async issuePasskeyChallenge(request) {
      const input = parseRequest(issuePasskeyChallengeRequest, request);
      const { challenge, session } = await challenges.issue(input.sessionToken, input.ceremony);
      return { challenge, session: toPasskeySession(session) };
    },
    async takePasskeyChallenge(request) {
      const input = parseRequest(takePasskeyChallengeRequest, request);
      const { challenge, session } = await challenges.take(input.sessionToken, input.ceremony);
      return { challenge, session: toPasskeySession(session) };
    },
    async recordPasskeyProof(request) {
      const { companyId, checkId, ...proof } = parseRequest(recordPasskeyProofRequest, request);
      if (!(await budget.recordPasskeyProof(companyId, checkId, proof)))
        throw new AuthError("auth.session.invalid", { detail: "no reserved passkey check to prove" });
      return {};
    },
  };
  return {
    name: "auth.session.v1.SessionService",
    definition: SessionServiceService,
    implementation: implement(SessionServiceService, methods, {
      logger,
      access: sessionAccess,
      adminTokenSha256,
    }),
  };
}
