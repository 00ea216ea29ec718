import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { NotificationEvent, type NotifyUserRequest } from "@auth/proto/identity";
import { TokenIntrospectionServiceService, TokenStatus } from "@auth/proto/introspection";
import { CheckResult, SecretKind, SessionServiceService, SessionState } from "@auth/proto/session";
import { createLogger, TtlCache } from "@auth/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CompanyRules } from "./check-policies.js";
import { introspectionService } from "./introspection.js";
import { sessionService } from "./server.js";
import { CheckBudget } from "./store/check-budget.js";
import { SessionStore } from "./store/session-store.js";
import { UserNotices } from "./user-notices.js";

type Client = ServiceClient<typeof SessionServiceService>;
const adminToken = "admin-token-for-the-session-tests-0123456789";
const policy = {
  captchaAfterFailures: 3,
  lockoutAfterFailures: 10,
  failureWindowSeconds: 900,
  suspended: false,
};
const terms = { code: "terms", title: "Terms", description: "The terms", link: "https://example.com/terms" };
const companyId = "c1";
const userId = "u-ann";
const start = {
  companyId,
  userId,
  state: SessionState.CHECKPASSWORD,
  loginId: "ann@example.com",
  passwordChangeRequired: false,
  refuseWhenLockedOut: false,
  disclaimersRequired: [],
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
  clientAddress: "192.0.2.1",
};

/**
 * The service's rules, over plain text (who may call what is the access table's business, tested in
 * test-e2e/src/trust.test.ts), with the identity service's answers faked.
 */
describe.each(keyValueKinds())("the session service on $name", (kind) => {
  let kv: KeyValueStore;
  let server: RunningGrpcServer;
  let session: Client;
  let introspection: ServiceClient<typeof TokenIntrospectionServiceService>;
  let notified: NotifyUserRequest[];

  beforeEach(async () => {
    kv = await kind.open();
    notified = [];
    const identity = {
      getCheckPolicy: async () => policy,
      verifyCaptcha: async () => ({ valid: false }),
      notifyUser: async (request: NotifyUserRequest) => {
        notified.push(request);
        return {};
      },
    };
    const logger = createLogger("session", "silent");
    const sessions = new SessionStore(kv, { now: () => Date.now() }, { of: () => 15 * 60_000 });
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      transport: { kind: "plaintext" },
      logger,
      services: [
        sessionService(
          {
            sessions,
            budget: new CheckBudget(kv),
            rules: new CompanyRules(identity, new TtlCache(0)),
            notices: new UserNotices(identity, logger),
            adminToken,
          },
          logger,
        ),
        introspectionService(sessions, adminToken, logger),
      ],
    });
    session = createServiceClient(SessionServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 5_000,
      adminToken,
      transport: { kind: "plaintext" },
      server: "session",
    });
    introspection = createServiceClient(TokenIntrospectionServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 5_000,
      adminToken,
      transport: { kind: "plaintext" },
      server: "session",
    });
  });
  afterEach(async () => {
    session.close();
    introspection.close();
    await server.stop();
    await kv.close();
  });

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => "ok",
      (error: AuthError) => error.code,
    );
  /** Reserves a check of the user's OTP (no captcha asked) and reports it as the test says. */
  const reserve = async () => {
    const reserved = await session.reserveSecretCheck({
      companyId,
      subject: { userId },
      kind: SecretKind.OTP,
      clientAddress: "192.0.2.1",
    });
    return reserved.checkId;
  };
  const failThrice = async () => {
    for (const checkId of [await reserve(), await reserve(), await reserve()])
      await session.reportSecretCheck({ companyId, checkId, result: CheckResult.WRONG });
  };
  const budget = () => session.getCheckBudget({ companyId, subject: { userId } });

  describe("CreateSession", () => {
    it("keeps the disclaimers the login found with the session, for the next step's lookup", async () => {
      const created = await session.createSession({ ...start, disclaimersRequired: [terms] });
      expect(created.session?.disclaimersRequired).toEqual([terms]);
      const found = await session.introspectSession({ sessionToken: created.sessionToken });
      expect(found.session?.disclaimersRequired).toEqual([terms]);
    });

    it("reports the right check the session starts on in the same call: the user's failures are forgotten", async () => {
      await failThrice();
      const checkId = await reserve();
      expect((await budget()).captchaRequired).toBe(true);
      await session.createSession({ ...start, rightCheckId: checkId });
      expect(await budget()).toEqual({ lockedOut: false, retryAfterSeconds: 0, captchaRequired: false });
    });

    it("refuses while the user is locked out, when asked, with auth.restricted and the time left", async () => {
      // A reserved check counts as failed until it is reported.
      for (let i = 0; i < policy.lockoutAfterFailures; i++) await reserve();
      expect(await codeOf(session.createSession({ ...start, refuseWhenLockedOut: true }))).toBe(
        "auth.restricted",
      );
      expect((await budget()).retryAfterSeconds).toBeGreaterThan(0);
    });
  });

  describe('the notices the user is sent (docs/security.md, "Notifications")', () => {
    const told = (event: NotificationEvent) => ({ companyId, userId, event });

    it("asks identity to tell the user when a recovery session starts, in any of its first states", async () => {
      await session.createSession(start);
      expect(notified).toEqual([]);
      for (const state of [
        SessionState.RECOVERY_CHECKOTP,
        SessionState.RECOVERY_CHECKQUESTION,
        SessionState.RECOVERY_SETPASSWORD,
      ])
        await session.createSession({ ...start, state });
      expect(notified).toEqual(Array(3).fill(told(NotificationEvent.RECOVERY_STARTED)));
    });

    it("asks identity to tell the user when a finished recovery forgets the user's failures", async () => {
      await session.forgetFailedChecks({ companyId, subject: { loginId: "nobody@example.com" } });
      await session.forgetFailedChecks({ companyId, subject: { userId } });
      expect(notified).toEqual([told(NotificationEvent.RECOVERY_COMPLETED)]);
    });

    it("asks identity to tell the user once, when the wrong check that locks the user out is reported", async () => {
      for (let i = 0; i < policy.lockoutAfterFailures + 2; i++) {
        const checkId = await reserve();
        if (checkId) await session.reportSecretCheck({ companyId, checkId, result: CheckResult.WRONG });
      }
      expect((await budget()).lockedOut).toBe(true);
      expect(notified).toEqual([told(NotificationEvent.LOCKED_OUT)]);
    });
  });

  describe("AdvanceSession", () => {
    it("drops the disclaimers: the step that moves the session has recorded their acceptance", async () => {
      const created = await session.createSession({ ...start, disclaimersRequired: [terms] });
      const moved = await session.advanceSession({
        sessionToken: created.sessionToken,
        fromState: SessionState.CHECKPASSWORD,
        toState: SessionState.CHECKOTP,
        renewCredentialGeneration: false,
      });
      expect(moved.session?.disclaimersRequired).toEqual([]);
      const found = await session.introspectSession({ sessionToken: moved.sessionToken });
      expect(found.session?.disclaimersRequired).toEqual([]);
    });

    it("reports the right check the move rests on in the same call: the user's failures are forgotten", async () => {
      const created = await session.createSession(start);
      await failThrice();
      const checkId = await reserve();
      await session.advanceSession({
        sessionToken: created.sessionToken,
        fromState: SessionState.CHECKPASSWORD,
        toState: SessionState.AUTHORIZED,
        renewCredentialGeneration: false,
        rightCheckId: checkId,
      });
      expect(await budget()).toEqual({ lockedOut: false, retryAfterSeconds: 0, captchaRequired: false });
    });
  });

  describe("session limits and the user's own sessions", () => {
    const limits = { absoluteLifetimeSeconds: 12 * 3600, idleTimeoutSeconds: 30 * 60 };
    const signIn = async () => {
      const created = await session.createSession({ ...start, ...limits });
      return session.advanceSession({
        sessionToken: created.sessionToken,
        fromState: SessionState.CHECKPASSWORD,
        toState: SessionState.AUTHORIZED,
        profileMnemocode: "P-1",
        renewCredentialGeneration: false,
      });
    };

    it("reports the absolute and the idle deadline to the gateway and to consumers", async () => {
      const { sessionToken, session: started } = await signIn();
      const createdAt = started?.createdAt?.getTime() ?? 0;
      const absolute = new Date(createdAt + 12 * 3600_000);
      const gateway = await session.introspectSession({ sessionToken });
      expect(gateway.session).toMatchObject({ absoluteExpiresAt: absolute });
      expect(gateway.session?.idleExpiresAt?.getTime()).toBe(
        (gateway.session?.lastSeenAt?.getTime() ?? 0) + 30 * 60_000,
      );
      const consumer = await introspection.introspectToken({ sessionToken });
      expect(consumer.status).toBe(TokenStatus.ACTIVE);
      expect(consumer.session).toMatchObject({
        absoluteExpiresAt: absolute,
        idleExpiresAt: gateway.session?.idleExpiresAt,
      });
    });

    it("lists the user's sessions with their client and without login IDs, and ends the others", async () => {
      const mine = await signIn();
      const other = await signIn();
      const listed = await session.listOwnSessions({ sessionToken: mine.sessionToken });
      expect(listed.currentSessionId).toBe(mine.session?.sessionId);
      expect(listed.sessions).toHaveLength(2);
      expect(listed.sessions[0]).toMatchObject({
        userAgent: start.userAgent,
        clientAddress: "192.0.2.1",
        loginId: "",
      });
      expect(await session.endOwnSessions({ sessionToken: mine.sessionToken, others: true })).toEqual({
        ended: 1,
      });
      expect((await session.introspectSession({ sessionToken: other.sessionToken })).status).toBe(
        TokenStatus.INVALID,
      );
    });

    it("takes exactly one of session_id and others", async () => {
      const { sessionToken } = await signIn();
      expect(await codeOf(session.endOwnSessions({ sessionToken }))).toBe("request.validation.failed");
      expect(await codeOf(session.endOwnSessions({ sessionToken, sessionId: "x", others: true }))).toBe(
        "request.validation.failed",
      );
    });
  });
});
