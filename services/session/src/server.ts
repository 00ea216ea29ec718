import { AuthError } from "@auth/errors";
import { type AsyncService, implement, messageSchema, parseRequest } from "@auth/grpc-kit";
import { NotificationEvent } from "@auth/proto/identity";
import {
  type AdvanceSessionRequest,
  CheckOutcome,
  CheckResult,
  type ClaimCredentialChangeRequest,
  type CreateSessionRequest,
  type EndOwnSessionsRequest,
  type ForgetFailedChecksRequest,
  type GetCheckBudgetRequest,
  type IntrospectSessionRequest,
  type ListOwnSessionsRequest,
  type ListUserSessionsRequest,
  type ReportSecretCheckRequest,
  type ReserveSecretCheckRequest,
  type RevokeSessionRequest,
  type RevokeUserSessionsRequest,
  SecretKind,
  type Session,
  SessionServiceService,
  SessionState,
  TokenStatus,
} from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { z } from "zod";
import { sessionAccess } from "./access.js";
import type { CompanyRules } from "./check-policies.js";
import type { CheckBudget, SecretKind as Kind, ReserveOutcome, Subject } from "./store/check-budget.js";
import { idleEndOf, type SessionRecord, type SessionStore } from "./store/session-store.js";
import type { UserNotices } from "./user-notices.js";

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
});

export const optionalDate = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));

/** The company's absolute lifetime and inactivity timeout, when it sets them. */
const limits = {
  absoluteLifetimeSeconds: lifetime,
  idleTimeoutSeconds: lifetime,
};

/** The requests' schemas, built once. */
const checkId = z.string().min(1).max(100);
/** A reserved check whose secret proved right, reported in the call that rests on it. */
const rightCheckId = checkId.optional();
const createSessionRequest = messageSchema<CreateSessionRequest>()(
  z.object({
    companyId: id,
    userId: id,
    state,
    loginId: z.string().max(512),
    profileMnemocode: z.string().optional(),
    passwordChangeRequired: z.boolean(),
    lifetimeSeconds: lifetime,
    refuseWhenLockedOut: z.boolean(),
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
  }),
);
const introspectSessionRequest = messageSchema<IntrospectSessionRequest>()(z.object({ sessionToken: token }));
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
    ...limits,
  }),
);
const retryKey = z.string().min(1).max(200).optional();
const revokeSessionRequest = messageSchema<RevokeSessionRequest>()(
  z.object({ sessionToken: token, retryKey }),
);
const claimCredentialChangeRequest = messageSchema<ClaimCredentialChangeRequest>()(
  z.object({ sessionToken: token, retryKey }),
);
const revokeUserSessionsRequest = messageSchema<RevokeUserSessionsRequest>()(
  z.object({ companyId: id, userId: id }),
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
const kinds: Partial<Record<SecretKind, Kind>> = {
  [SecretKind.PASSWORD]: "password",
  [SecretKind.OTP]: "otp",
  [SecretKind.BACKUP_CODE]: "backupCode",
  [SecretKind.CONTROL_ANSWER]: "controlAnswer",
};
/** GetCheckBudget and ForgetFailedChecks: a company and a subject. */
const subjectRequest = messageSchema<GetCheckBudgetRequest & ForgetFailedChecksRequest>()(
  z.object({ companyId: id, subject }),
);
const reserveSecretCheckRequest = messageSchema<ReserveSecretCheckRequest>()(
  z.object({
    companyId: id,
    subject,
    kind: z.enum(SecretKind).transform((kind, context) => {
      const known = kinds[kind];
      if (!known) context.addIssue({ code: "custom", message: "must be a kind of secret" });
      return known ?? "password";
    }),
    captchaResponse: z.string().max(8_192).optional(),
    clientAddress: z.string().max(100),
    sessionToken: token.optional(),
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

const outcomes: Record<ReserveOutcome["outcome"], CheckOutcome> = {
  allowed: CheckOutcome.ALLOWED,
  lockedOut: CheckOutcome.LOCKED_OUT,
  captchaNeeded: CheckOutcome.CAPTCHA_MISSING,
  sessionSpent: CheckOutcome.SESSION_SPENT,
};

export interface SessionDependencies {
  sessions: SessionStore;
  budget: CheckBudget;
  /** The companies' limits and captcha checks, from the identity service. */
  rules: CompanyRules;
  /** Tells users of recoveries and lock-outs, through the identity service. */
  notices: UserNotices;
  adminToken: string;
}

/** The states a recovery session starts in: the start of a recovery, as the user is told. */
const recoveryStates = new Set([
  SessionState.RECOVERY_CHECKOTP,
  SessionState.RECOVERY_CHECKQUESTION,
  SessionState.RECOVERY_SETPASSWORD,
]);

export function sessionService(
  { sessions, budget, rules, notices, adminToken }: SessionDependencies,
  logger: Logger,
) {
  const methods: AsyncService<typeof SessionServiceService> = {
    async createSession(request) {
      const { refuseWhenLockedOut, rightCheckId, ...input } = parseRequest(createSessionRequest, request);
      if (rightCheckId !== undefined) await budget.report(rightCheckId, "right");
      let captchaRequired = false;
      if (refuseWhenLockedOut) {
        const status = await budget.status(
          input.companyId,
          { userId: input.userId },
          await rules.policyOf(input.companyId),
        );
        if (status.lockedOut) {
          throw new AuthError("auth.restricted", {
            retryAfterSeconds: status.retryAfterSeconds,
            detail: "user locked out",
          });
        }
        captchaRequired = status.captchaRequired;
      }
      const created = await sessions.create(input);
      if (recoveryStates.has(input.state))
        notices.tell(input.companyId, input.userId, NotificationEvent.RECOVERY_STARTED);
      return {
        sessionToken: created.token,
        session: toSession(created.session, sessions.now()),
        captchaRequired,
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
    async advanceSession(request) {
      const input = parseRequest(advanceSessionRequest, request);
      const { sessionToken, fromState, toState, rightCheckId, ...changes } = input;
      if (rightCheckId !== undefined) await budget.report(rightCheckId, "right");
      const advanced = await sessions.advance(sessionToken, fromState, toState, changes);
      return { sessionToken: advanced.token, session: toSession(advanced.session, sessions.now()) };
    },
    async revokeSession(request) {
      const input = parseRequest(revokeSessionRequest, request);
      return { revoked: await sessions.revoke(input.sessionToken, input.retryKey) };
    },
    async claimCredentialChange(request) {
      const input = parseRequest(claimCredentialChangeRequest, request);
      return sessions.claimCredentialChange(input.sessionToken, input.retryKey);
    },
    async revokeUserSessions(request) {
      const input = parseRequest(revokeUserSessionsRequest, request);
      return { revoked: await sessions.revokeUser(input.companyId, input.userId) };
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
    async endOwnSessions(request) {
      const { sessionToken, target } = parseRequest(endOwnSessionsRequest, request);
      return { ended: await sessions.endOwn(sessionToken, target) };
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
      const input = parseRequest(subjectRequest, request);
      return budget.status(input.companyId, input.subject, await rules.policyOf(input.companyId));
    },
    async reserveSecretCheck(request) {
      const input = parseRequest(reserveSecretCheckRequest, request);
      const policy = await rules.policyOf(input.companyId);
      // A control answer spends the budget of its recovery session too.
      let session: { sessionId: string; ttlMs: number } | undefined;
      if (input.kind === "controlAnswer" && input.sessionToken !== undefined) {
        const found = await sessions.introspect(input.sessionToken);
        if (found.status !== "active") {
          return {
            outcome: CheckOutcome.SESSION_SPENT,
            checkId: "",
            retryAfterSeconds: 0,
            captchaRequired: false,
            credentialGeneration: "",
          };
        }
        session = {
          sessionId: found.session.sessionId,
          ttlMs: Math.max(1_000, found.session.expiresAt - Date.now()),
        };
      }
      // Read before the secret is compared: a password change after this ends the session it starts.
      const credentialGeneration =
        "userId" in input.subject ? await sessions.generationOf(input.companyId, input.subject.userId) : "";
      const captchaPassed =
        input.kind === "password" && input.captchaResponse !== undefined
          ? await rules.captchaPasses(input.companyId, input.captchaResponse, input.clientAddress)
          : false;
      const reserved = await budget.reserve(
        {
          companyId: input.companyId,
          subject: input.subject,
          kind: input.kind,
          captchaPassed,
          session,
          credentialGeneration,
        },
        policy,
      );
      if (reserved.endSession) await sessions.end(reserved.endSession);
      return {
        outcome:
          reserved.outcome === "captchaNeeded" && input.captchaResponse !== undefined
            ? CheckOutcome.CAPTCHA_INVALID
            : outcomes[reserved.outcome],
        checkId: reserved.outcome === "allowed" ? reserved.checkId : "",
        retryAfterSeconds: reserved.outcome === "lockedOut" ? reserved.retryAfterSeconds : 0,
        captchaRequired: reserved.captchaRequired,
        credentialGeneration,
      };
    },
    async forgetFailedChecks(request) {
      const input = parseRequest(subjectRequest, request);
      await budget.forget(input.companyId, input.subject);
      if ("userId" in input.subject)
        notices.tell(input.companyId, input.subject.userId, NotificationEvent.RECOVERY_COMPLETED);
      return {};
    },
    async reportSecretCheck(request) {
      const input = parseRequest(reportSecretCheckRequest, request);
      const { endSession, lockedOut } = await budget.report(input.checkId, results[input.result]);
      if (lockedOut) metrics.lockouts.inc();
      if (lockedOut?.userId)
        notices.tell(lockedOut.companyId, lockedOut.userId, NotificationEvent.LOCKED_OUT);
      if (endSession) await sessions.end(endSession);
      return { sessionEnded: endSession !== undefined };
    },
  };
  return {
    name: "auth.session.v1.SessionService",
    definition: SessionServiceService,
    implementation: implement(SessionServiceService, methods, {
      logger,
      access: sessionAccess,
      adminToken,
    }),
  };
}
