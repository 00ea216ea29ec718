import type { AuthError } from "@auth/errors";
import {
  companyLimits,
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { FactorKind, TokenIntrospectionServiceService, TokenStatus } from "@auth/proto/introspection";
import {
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  GetCredentialChangeResponse,
  PasskeyCeremony,
  SecretKind,
  SessionServiceService,
  SessionState,
} from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { introspectionService } from "./introspection.js";
import { sessionService } from "./server.js";
import { CheckBudget } from "./store/check-budget.js";
import { KnownDevices } from "./store/known-devices.js";
import { PasskeyChallenges } from "./store/passkey-challenges.js";
import { SessionStore } from "./store/session-store.js";
import { withLimits } from "./testing.js";

type Client = ServiceClient<typeof SessionServiceService>;
const adminToken = "admin-token-for-the-session-tests-0123456789";
const policy = {
  captchaAfterFailures: 3,
  lockoutAfterFailures: 10,
  failureWindowSeconds: 900,
  suspended: false,
  newDeviceNoticeDays: 90,
  maxSessionsPerUser: 0,
};
const terms = { code: "terms", title: "Terms", description: "The terms", link: "https://example.com/terms" };
const companyId = "c1";
const userId = "u-ann";
const clientAddress = "192.0.2.1";
const start = {
  companyId,
  userId,
  state: SessionState.CHECKPASSWORD,
  loginId: "ann@example.com",
  passwordChangeRequired: false,
  lockoutKind: SecretKind.UNSPECIFIED,
  disclaimersRequired: [],
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
  clientAddress: "192.0.2.1",
  passkeyDiscovery: false,
  deviceId: "",
};

/**
 * The service's rules, over plain text (who may call what is the access table's business, tested in
 * test-e2e/src/trust.test.ts); the calls that take the company's limits are sent those of
 * `companyPolicy`, as the gateway and identity send them.
 */
describe.each(keyValueKinds())("the session service on $name", (kind) => {
  let kv: KeyValueStore;
  let server: RunningGrpcServer;
  let session: Client;
  let introspection: ServiceClient<typeof TokenIntrospectionServiceService>;
  /** The company's policy as its callers send it in the test. */
  let companyPolicy: typeof policy;

  beforeEach(async () => {
    kv = await kind.open();
    companyPolicy = policy;
    const logger = createLogger("session", "silent");
    const clock = { now: () => Date.now() };
    const sessions = new SessionStore(kv, clock, { of: () => 15 * 60_000 });
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      transport: { kind: "plaintext" },
      logger,
      services: [
        sessionService(
          {
            sessions,
            budget: new CheckBudget(kv, clock),
            challenges: new PasskeyChallenges(kv, sessions),
            devices: new KnownDevices(clock),
            adminTokenSha256: hashAdminToken(adminToken),
          },
          logger,
        ),
        introspectionService(sessions, hashAdminToken(adminToken), logger),
      ],
    });
    session = withLimits(
      createServiceClient(SessionServiceService, `127.0.0.1:${server.port}`, {
        deadlineMs: 5_000,
        adminToken,
        transport: { kind: "plaintext" },
        server: "session",
      }),
      () => companyLimits(companyPolicy),
    );
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
  /** Reserves a check of one of the user's secrets (a password with a captcha that passed). */
  const reserveCheck = (kind: SecretKind, options: { sessionToken?: string; user?: string } = {}) =>
    session.reserveSecretCheck({
      companyId,
      subject: { userId: options.user ?? userId },
      kind,
      captcha: kind === SecretKind.PASSWORD ? CaptchaVerdict.PASSED : CaptchaVerdict.UNSPECIFIED,
      sessionToken: options.sessionToken,
    });
  /** The id of a reserved check ("" when refused). */
  const reserve = async (
    kind = SecretKind.PASSWORD,
    options: { sessionToken?: string; user?: string } = {},
  ) => (await reserveCheck(kind, options)).checkId;
  const report = (checkId: string, result: CheckResult) =>
    session.reportSecretCheck({ companyId, checkId, result });
  const failThrice = async () => {
    for (const checkId of [await reserve(), await reserve(), await reserve()])
      await report(checkId, CheckResult.WRONG);
  };
  /** A right passkey check as identity makes one: reserved, the assertion verified, its proof recorded. */
  const passkeyCheck = async (proof: { userVerified: boolean; backedUp: boolean }, user = userId) => {
    const checkId = await reserve(SecretKind.PASSKEY, { user });
    await session.recordPasskeyProof({ companyId, checkId, ...proof });
    return checkId;
  };
  const budget = (kind = SecretKind.UNSPECIFIED) =>
    session.getCheckBudget({ companyId, subject: { userId }, kind });
  const move = (
    sessionToken: string,
    fromState: SessionState,
    toState: SessionState,
    rightCheckId?: string,
  ) =>
    session.advanceSession({
      sessionToken,
      fromState,
      toState,
      renewCredentialGeneration: false,
      rightCheckId,
    });

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

    it("starts on the right check that took the budget's last failure: the report forgets the failures before the lock-out is read", async () => {
      for (let i = 1; i < policy.lockoutAfterFailures; i++)
        await report(await reserve(SecretKind.APP_CODE), CheckResult.WRONG);
      const checkId = await reserve(SecretKind.APP_CODE);
      expect((await budget(SecretKind.APP_CODE)).lockedOut).toBe(true);
      const created = await session.createSession({
        ...start,
        rightCheckId: checkId,
        lockoutKind: SecretKind.APP_CODE,
      });
      expect(created.sessionToken).not.toBe("");
      expect((await budget(SecretKind.APP_CODE)).lockedOut).toBe(false);
    });

    it("refuses while the user's budget of lockout_kind is locked out, with auth.restricted and the time left; UNSPECIFIED checks none", async () => {
      // A reserved check counts as failed until it is reported.
      for (let i = 0; i < policy.lockoutAfterFailures; i++) await reserve(SecretKind.APP_CODE);
      expect(await codeOf(session.createSession({ ...start, lockoutKind: SecretKind.APP_CODE }))).toBe(
        "auth.restricted",
      );
      expect((await budget(SecretKind.APP_CODE)).retryAfterSeconds).toBeGreaterThan(0);
      const other = await session.createSession({ ...start, lockoutKind: SecretKind.PASSWORD });
      expect(other.captchaRequired).toBe(false);
      expect(await codeOf(session.createSession(start))).toBe("ok");
    });

    it("tells whether the user's next password needs a captcha, whatever lockout_kind", async () => {
      await failThrice();
      for (const lockoutKind of [SecretKind.PASSWORD, SecretKind.SMS_CODE])
        expect((await session.createSession({ ...start, lockoutKind })).captchaRequired).toBe(true);
    });
  });

  describe('the company\'s limits, which the caller sends (docs/security.md, "The limits a caller sends")', () => {
    it("refuses a call that takes them without them, with request.validation.failed", async () => {
      const bare = { limits: undefined };
      expect(await codeOf(session.createSession({ ...start, ...bare }))).toBe("request.validation.failed");
      expect(
        await codeOf(
          session.getCheckBudget({ companyId, subject: { userId }, kind: SecretKind.PASSWORD, ...bare }),
        ),
      ).toBe("request.validation.failed");
      expect(
        await codeOf(
          session.reserveSecretCheck({
            companyId,
            subject: { userId },
            kind: SecretKind.SMS_CODE,
            captcha: CaptchaVerdict.UNSPECIFIED,
            ...bare,
          }),
        ),
      ).toBe("request.validation.failed");
    });

    it("counts each call's checks against the limits it was sent", async () => {
      companyPolicy = { ...policy, lockoutAfterFailures: 2 };
      await reserve(SecretKind.APP_CODE);
      await reserve(SecretKind.APP_CODE);
      expect((await budget(SecretKind.APP_CODE)).lockedOut).toBe(true);
      companyPolicy = policy;
      expect((await budget(SecretKind.APP_CODE)).lockedOut).toBe(false);
    });
  });

  describe("a password's captcha, as the caller that checks the password verified it", () => {
    const password = (captcha: CaptchaVerdict) =>
      session.reserveSecretCheck({ companyId, subject: { userId }, kind: SecretKind.PASSWORD, captcha });

    it("past the company's captcha threshold, gets a check only with PASSED: FAILED answers CAPTCHA_INVALID, none CAPTCHA_MISSING", async () => {
      await failThrice();
      expect((await password(CaptchaVerdict.UNSPECIFIED)).outcome).toBe(CheckOutcome.CAPTCHA_MISSING);
      expect((await password(CaptchaVerdict.FAILED)).outcome).toBe(CheckOutcome.CAPTCHA_INVALID);
      expect((await password(CaptchaVerdict.PASSED)).outcome).toBe(CheckOutcome.ALLOWED);
    });

    it("below the threshold, is not asked for", async () => {
      expect((await password(CaptchaVerdict.FAILED)).outcome).toBe(CheckOutcome.ALLOWED);
    });
  });

  describe('whose lock-out the caller tells the user of (docs/security.md, "Notifications")', () => {
    it("answers the user of the wrong check that fills a budget, once per filling", async () => {
      const lockedOut: string[] = [];
      const fill = async () => {
        for (let i = 0; i < policy.lockoutAfterFailures + 2; i++) {
          const checkId = await reserve(SecretKind.APP_CODE);
          if (checkId) {
            const reported = await report(checkId, CheckResult.WRONG);
            if (reported.lockedOutUserId) lockedOut.push(reported.lockedOutUserId);
          }
        }
      };
      await fill();
      expect((await budget(SecretKind.APP_CODE)).lockedOut).toBe(true);
      expect(lockedOut).toEqual([userId]);
      // A right SMS code forgets the app code's failures: the next filling is answered again.
      await report(await reserve(SecretKind.SMS_CODE), CheckResult.RIGHT);
      await fill();
      expect(lockedOut).toEqual([userId, userId]);
    });

    it("answers no user for a login ID's budget", async () => {
      const subject = { loginId: "nobody@example.com" };
      for (let i = 0; i < policy.lockoutAfterFailures; i++) {
        const { checkId } = await session.reserveSecretCheck({
          companyId,
          subject,
          kind: SecretKind.PASSWORD,
          captcha: CaptchaVerdict.PASSED,
        });
        expect((await report(checkId, CheckResult.WRONG)).lockedOutUserId).toBe("");
      }
    });
  });

  describe('a sign-in from a new device (docs/decisions.md, "Known devices")', () => {
    const laptop = "lApT0p-0123456789abcdef";
    const phone = "pH0nE-0123456789abcdef";
    const phoneAgent =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
    /** A login through checkpassword to authorized from the device id at the address. */
    const signIn = async (deviceId: string, address = clientAddress, userAgent = start.userAgent) => {
      const { sessionToken } = await session.createSession({
        ...start,
        deviceId,
        clientAddress: address,
        userAgent,
      });
      const moved = await move(
        sessionToken,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        await reserve(),
      );
      return moved.newDevice;
    };

    it("answers no new device for the user's first sign-in, nor for the same device again in its network", async () => {
      expect(await signIn(laptop)).toBe(false);
      expect(await signIn(laptop)).toBe(false);
      expect(await signIn(laptop, "192.0.2.200")).toBe(false);
    });

    it("answers a new device once, for the caller to tell the user, who is named by the session's user agent", async () => {
      await signIn(laptop);
      expect(await signIn(phone, clientAddress, phoneAgent)).toBe(true);
      expect(await signIn(phone, clientAddress, phoneAgent)).toBe(false);
    });

    it("answers a known device in a new network as new", async () => {
      await signIn(laptop);
      expect(await signIn(laptop, "203.0.113.9")).toBe(true);
    });

    it("answers a session started authorized as one moved to authorized, and no other start or move", async () => {
      await signIn(laptop);
      const otp = await session.createSession({ ...start, deviceId: phone, state: SessionState.CHECKOTP });
      expect(otp.newDevice).toBe(false);
      const started = await session.createSession({
        ...start,
        deviceId: phone,
        state: SessionState.AUTHORIZED,
        rightCheckId: await reserve(),
      });
      expect(started.newDevice).toBe(true);
    });

    it("takes a device id of another shape as none, never as an error: the browser and system name the device", async () => {
      await signIn(laptop);
      // Both without an id: the same browser and system, one new device.
      expect(await signIn("not a device id")).toBe(true);
      expect(await signIn("x".repeat(2_000))).toBe(false);
    });
  });

  describe('the session cap (max_sessions_per_user, docs/decisions.md "Session cap")', () => {
    const authorizedNow = async () =>
      (await session.listUserSessions({ companyId, userId })).sessions.filter(
        (listed) => listed.state === SessionState.AUTHORIZED,
      );

    it.each([
      ["started authorized", false],
      ["moved to authorized", true],
    ])("leaves the newest of 12 parallel logins at a cap of 3 (%s)", async (_, moved) => {
      // Twelve passwords checked at once count as failed until reported: no lock-out in the way.
      companyPolicy = { ...policy, maxSessionsPerUser: 3, lockoutAfterFailures: 100 };
      const logins = await Promise.all(
        Array.from({ length: 12 }, async () => {
          if (!moved) {
            const rightCheckId = await reserve();
            return (await session.createSession({ ...start, state: SessionState.AUTHORIZED, rightCheckId }))
              .session;
          }
          const { sessionToken } = await session.createSession(start);
          return (
            await move(sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, await reserve())
          ).session;
        }),
      );
      const left = (await authorizedNow()).map((listed) => listed.sessionId).sort();
      expect(left).toHaveLength(3);
      // The newest by authorization (as each login answered it: its last use, its start or its
      // move to authorized), tie by id.
      const stamped = await Promise.all(
        logins.map(async (login) => ({ id: login?.sessionId ?? "", at: login?.lastSeenAt?.getTime() ?? 0 })),
      );
      const newest = stamped
        .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
        .slice(-3)
        .map(({ id }) => id)
        .sort();
      expect(left).toEqual(newest);
    });

    it("ends none without a cap", async () => {
      for (let i = 0; i < 5; i++)
        await session.createSession({
          ...start,
          state: SessionState.AUTHORIZED,
          rightCheckId: await reserve(),
        });
      expect(await authorizedNow()).toHaveLength(5);
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

    it("reports the right check of a move that is refused all the same: failures forgotten, the session's turn given back, no later move rests on it", async () => {
      const created = await session.createSession(start);
      await failThrice();
      const checkId = await reserve(SecretKind.PASSWORD, { sessionToken: created.sessionToken });
      expect(
        await codeOf(move(created.sessionToken, SessionState.CHECKOTP, SessionState.AUTHORIZED, checkId)),
      ).toBe("auth.session.invalid");
      expect(await budget()).toEqual({ lockedOut: false, retryAfterSeconds: 0, captchaRequired: false });
      expect(
        await codeOf(
          move(created.sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, checkId),
        ),
      ).toBe("auth.token.invalid");
      expect((await reserveCheck(SecretKind.PASSWORD, { sessionToken: created.sessionToken })).outcome).toBe(
        CheckOutcome.ALLOWED,
      );
    });

    it("of parallel moves of one session on two right checks, one moves it; the other's check is reported all the same: its failures forgotten, and it rests no later move", async () => {
      const created = await session.createSession(start);
      await failThrice();
      for (let i = 1; i < policy.lockoutAfterFailures; i++)
        await report(await reserve(SecretKind.APP_CODE), CheckResult.WRONG);
      const checks = [await reserve(SecretKind.PASSWORD), await reserve(SecretKind.APP_CODE)];
      expect(await budget(SecretKind.APP_CODE)).toMatchObject({ lockedOut: true, captchaRequired: true });
      const moves = await Promise.allSettled(
        checks.map((checkId) =>
          move(created.sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, checkId),
        ),
      );
      expect(moves.filter((moved) => moved.status === "fulfilled")).toHaveLength(1);
      // Each right check forgot its own kind's failures, the refused move's included.
      expect(await budget(SecretKind.APP_CODE)).toEqual({
        lockedOut: false,
        retryAfterSeconds: 0,
        captchaRequired: false,
      });
      const again = await session.createSession(start);
      for (const checkId of checks) {
        expect(
          await codeOf(
            move(again.sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, checkId),
          ),
        ).toBe("auth.token.invalid");
      }
    });
  });

  describe('a session authorized only on proof the session service recorded (docs/security.md, "Trust between the services")', () => {
    const sessionsOfAnn = async () =>
      (await session.listUserSessions({ companyId, userId })).sessions.map((listed) => listed.sessionId);

    it.each([
      ["authorized", SessionState.AUTHORIZED],
      ["setpassword", SessionState.SETPASSWORD],
    ])(
      "CreateSession in %s without right_check_id, or on a control answer, fails with auth.session.invalid: no session is created",
      async (_, state) => {
        const recovery = await session.createSession({
          ...start,
          state: SessionState.RECOVERY_CHECKQUESTION,
        });
        const ids = [recovery.session?.sessionId];
        const answer = await reserve(SecretKind.CONTROL_ANSWER, { sessionToken: recovery.sessionToken });
        for (const rightCheckId of [undefined, answer]) {
          expect(await codeOf(session.createSession({ ...start, state, rightCheckId }))).toBe(
            "auth.session.invalid",
          );
        }
        expect(await sessionsOfAnn()).toEqual(ids);
        const created = await session.createSession({ ...start, state, rightCheckId: await reserve() });
        expect(created.session).toMatchObject({ state, authentication: { level: 1 } });
      },
    );

    it("AdvanceSession to authorized of a session with no factor fails with auth.session.invalid: it stays where it was", async () => {
      const created = await session.createSession({ ...start, state: SessionState.CHECKOTP });
      expect(await codeOf(move(created.sessionToken, SessionState.CHECKOTP, SessionState.AUTHORIZED))).toBe(
        "auth.session.invalid",
      );
      expect(await codeOf(move(created.sessionToken, SessionState.CHECKOTP, SessionState.SETPASSWORD))).toBe(
        "auth.session.invalid",
      );
      expect(await session.introspectSession({ sessionToken: created.sessionToken })).toMatchObject({
        status: TokenStatus.ACTIVE,
        session: { state: SessionState.CHECKOTP, authentication: { level: 0 } },
      });
      const authorized = await move(
        created.sessionToken,
        SessionState.CHECKOTP,
        SessionState.AUTHORIZED,
        await reserve(SecretKind.SMS_CODE),
      );
      expect(authorized.session?.state).toBe(SessionState.AUTHORIZED);
    });

    it("AdvanceSession never authorizes a recovery session, on whatever right check", async () => {
      const created = await session.createSession({ ...start, state: SessionState.RECOVERY_CHECKOTP });
      const atSetPassword = await move(
        created.sessionToken,
        SessionState.RECOVERY_CHECKOTP,
        SessionState.RECOVERY_SETPASSWORD,
      );
      expect(
        await codeOf(
          move(
            atSetPassword.sessionToken,
            SessionState.RECOVERY_SETPASSWORD,
            SessionState.AUTHORIZED,
            await reserve(SecretKind.PASSWORD),
          ),
        ),
      ).toBe("auth.session.invalid");
      expect(
        (await session.introspectSession({ sessionToken: atSetPassword.sessionToken })).session?.state,
      ).toBe(SessionState.RECOVERY_SETPASSWORD);
    });
  });

  describe('a password-free login (passkey_discovery, docs/decisions.md "Passkeys")', () => {
    const discovery = { ...start, userId: "", loginId: "", passkeyDiscovery: true };
    const sessionsOfAnn = async () =>
      (await session.listUserSessions({ companyId, userId })).sessions.map((listed) => listed.sessionId);

    it("CreateSession starts a session of no user in checkpassword, in no user's list; lockout_kind does not apply", async () => {
      const created = await session.createSession({ ...discovery, lockoutKind: SecretKind.PASSWORD });
      expect(created).toMatchObject({
        captchaRequired: false,
        session: { userId: "", loginId: "", state: SessionState.CHECKPASSWORD, authentication: { level: 0 } },
      });
      expect(await session.introspectSession({ sessionToken: created.sessionToken })).toMatchObject({
        status: TokenStatus.ACTIVE,
        session: { userId: "" },
      });
      expect(await sessionsOfAnn()).toEqual([]);
    });

    it("CreateSession refuses passkey_discovery with a user or login ID (request.validation.failed), in another state or on a right check (auth.session.invalid)", async () => {
      for (const named of [{ userId }, { loginId: "ann@example.com" }])
        expect(await codeOf(session.createSession({ ...discovery, ...named }))).toBe(
          "request.validation.failed",
        );
      expect(await codeOf(session.createSession({ ...discovery, state: SessionState.CHECKOTP }))).toBe(
        "auth.session.invalid",
      );
      expect(
        await codeOf(
          session.createSession({
            ...discovery,
            rightCheckId: await passkeyCheck({ userVerified: true, backedUp: true }),
          }),
        ),
      ).toBe("auth.session.invalid");
      expect(await codeOf(session.createSession({ ...start, userId: "" }))).toBe("request.validation.failed");
      expect(await sessionsOfAnn()).toEqual([]);
    });

    it("AdvanceSession takes the user of a user-verified passkey: the session is the user's, at level 2", async () => {
      const created = await session.createSession(discovery);
      const moved = await move(
        created.sessionToken,
        SessionState.CHECKPASSWORD,
        SessionState.AUTHORIZED,
        await passkeyCheck({ userVerified: true, backedUp: true }),
      );
      expect(moved.session).toMatchObject({
        userId,
        loginId: "",
        state: SessionState.AUTHORIZED,
        authentication: { level: 2, amr: ["swk", "mfa"] },
      });
      expect(await sessionsOfAnn()).toEqual([created.session?.sessionId]);
      expect(
        (await introspection.introspectToken({ sessionToken: moved.sessionToken })).session,
      ).toMatchObject({ userId, authentication: { level: 2 } });
    });

    it("AdvanceSession refuses a passkey that did not verify the user, and a password, with auth.session.invalid: nothing changes", async () => {
      const created = await session.createSession(discovery);
      for (const rightCheckId of [
        await passkeyCheck({ userVerified: false, backedUp: true }),
        await reserve(SecretKind.PASSWORD),
        undefined,
      ]) {
        expect(
          await codeOf(
            move(created.sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, rightCheckId),
          ),
        ).toBe("auth.session.invalid");
      }
      expect(await session.introspectSession({ sessionToken: created.sessionToken })).toMatchObject({
        session: { userId: "", state: SessionState.CHECKPASSWORD, authentication: { level: 0 } },
      });
      expect(await sessionsOfAnn()).toEqual([]);
    });
  });

  describe("the challenges of identity's WebAuthn ceremonies (IssuePasskeyChallenge, TakePasskeyChallenge)", () => {
    it("issues a login's challenge bound to the session and answers whose session it is; it is taken once", async () => {
      const created = await session.createSession(start);
      const bound = {
        sessionId: created.session?.sessionId,
        companyId,
        userId,
        state: SessionState.CHECKPASSWORD,
      };
      const issued = await session.issuePasskeyChallenge({
        sessionToken: created.sessionToken,
        ceremony: PasskeyCeremony.LOGIN,
      });
      expect(issued).toEqual({ challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), session: bound });
      const take = () =>
        session.takePasskeyChallenge({ sessionToken: created.sessionToken, ceremony: PasskeyCeremony.LOGIN });
      expect(await take()).toEqual(issued);
      expect(await take()).toEqual({ session: bound });
    });

    it("refuses a ceremony not named with request.validation.failed, a registration's before authorization with auth.session.invalid, an unknown token with auth.token.invalid", async () => {
      const { sessionToken } = await session.createSession(start);
      for (const ceremony of [PasskeyCeremony.UNSPECIFIED, PasskeyCeremony.UNRECOGNIZED]) {
        expect(await codeOf(session.issuePasskeyChallenge({ sessionToken, ceremony }))).toBe(
          "request.validation.failed",
        );
        expect(await codeOf(session.takePasskeyChallenge({ sessionToken, ceremony }))).toBe(
          "request.validation.failed",
        );
      }
      expect(
        await codeOf(session.issuePasskeyChallenge({ sessionToken, ceremony: PasskeyCeremony.REGISTRATION })),
      ).toBe("auth.session.invalid");
      expect(
        await codeOf(
          session.takePasskeyChallenge({ sessionToken: "A".repeat(64), ceremony: PasskeyCeremony.LOGIN }),
        ),
      ).toBe("auth.token.invalid");
    });
  });

  describe("RecordPasskeyProof", () => {
    it("refuses with auth.session.invalid a check that is no reserved passkey check of the company: nothing is proven", async () => {
      const proof = { userVerified: true, backedUp: false };
      expect(
        await codeOf(session.recordPasskeyProof({ companyId, checkId: "no-such-check", ...proof })),
      ).toBe("auth.session.invalid");
      const appCode = await reserve(SecretKind.APP_CODE);
      expect(await codeOf(session.recordPasskeyProof({ companyId, checkId: appCode, ...proof }))).toBe(
        "auth.session.invalid",
      );
      const passkey = await reserve(SecretKind.PASSKEY);
      expect(await codeOf(session.recordPasskeyProof({ companyId: "c2", checkId: passkey, ...proof }))).toBe(
        "auth.session.invalid",
      );
      await report(passkey, CheckResult.WRONG);
      expect(await codeOf(session.recordPasskeyProof({ companyId, checkId: passkey, ...proof }))).toBe(
        "auth.session.invalid",
      );
    });
  });

  describe("GetCredentialChange (for identity's SetPassword)", () => {
    const unclaimed = GetCredentialChangeResponse.fromJSON({});
    const changeOf = (sessionToken: string) => session.getCredentialChange({ sessionToken });

    it("tells whose change a session in setpassword or recovery-setpassword may make, whether it checked the password, and names its claim once claimed", async () => {
      for (const [state, rightCheckId, passwordChecked] of [
        [SessionState.SETPASSWORD, await reserve(), true],
        [SessionState.RECOVERY_SETPASSWORD, undefined, false],
      ] as const) {
        const { sessionToken } = await session.createSession({ ...start, state, rightCheckId });
        const change = { companyId, userId, state, passwordChecked };
        expect(await changeOf(sessionToken)).toEqual({ ...change, claimed: false, claimId: "" });
        await session.claimCredentialChange({ sessionToken, retryKey: "first" });
        const claimed = await changeOf(sessionToken);
        expect(claimed).toEqual({ ...change, claimed: true, claimId: expect.any(String) });
        expect(claimed.claimId).not.toBe("");
      }
    });

    it("tells nothing of an unknown token, nor a claim of a claimed session that moved on", async () => {
      expect(await changeOf("")).toEqual(unclaimed);
      expect(await changeOf("A".repeat(64))).toEqual(unclaimed);
      const { sessionToken } = await session.createSession({
        ...start,
        state: SessionState.SETPASSWORD,
        rightCheckId: await reserve(),
      });
      await session.claimCredentialChange({ sessionToken });
      const moved = await session.advanceSession({
        sessionToken,
        fromState: SessionState.SETPASSWORD,
        toState: SessionState.AUTHORIZED,
        renewCredentialGeneration: true,
      });
      expect(await changeOf(sessionToken)).toEqual(unclaimed);
      expect(await changeOf(moved.sessionToken)).toMatchObject({ claimed: false, claimId: "" });
    });

    it("ClaimCredentialChange refuses a session in another state with auth.session.invalid", async () => {
      const { sessionToken } = await session.createSession(start);
      expect(await codeOf(session.claimCredentialChange({ sessionToken }))).toBe("auth.session.invalid");
      expect(await changeOf(sessionToken)).toEqual(unclaimed);
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
        rightCheckId: await reserve(),
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

  describe("GetCheckBudget", () => {
    it("answers the lock-out of the kind asked, PASSWORD when unspecified, and the captcha always of passwords", async () => {
      await failThrice();
      for (let i = 0; i < policy.lockoutAfterFailures; i++) await reserve(SecretKind.APP_CODE);
      expect(await budget(SecretKind.APP_CODE)).toMatchObject({ lockedOut: true, captchaRequired: true });
      expect(await budget(SecretKind.SMS_CODE)).toEqual({
        lockedOut: false,
        retryAfterSeconds: 0,
        captchaRequired: true,
      });
      expect(await budget()).toEqual(await budget(SecretKind.PASSWORD));
      expect(await budget()).toMatchObject({ lockedOut: false, captchaRequired: true });
    });
  });

  describe("one check at a time per session", () => {
    const outcomesOf = (answers: { outcome: CheckOutcome }[]) =>
      answers.reduce<Record<string, number>>((counts, { outcome }) => {
        counts[outcome] = (counts[outcome] ?? 0) + 1;
        return counts;
      }, {});
    /** Reserves and reports wrong checks until one is refused: how many were allowed, and the refusal. */
    const checksLeft = async (kind: SecretKind, sessionToken?: string) => {
      for (let allowed = 0; ; allowed++) {
        const reserved = await reserveCheck(kind, { sessionToken });
        if (reserved.outcome !== CheckOutcome.ALLOWED) return { allowed, refused: reserved.outcome };
        await report(reserved.checkId, CheckResult.WRONG);
      }
    };

    it("of 5 parallel passwords with one token, checks 1 and answers 4 SESSION_BUSY, which spend nothing: no captcha, no failure", async () => {
      const { sessionToken } = await session.createSession(start);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => reserveCheck(SecretKind.PASSWORD, { sessionToken })),
      );
      expect(outcomesOf(answers)).toEqual({
        [CheckOutcome.ALLOWED]: 1,
        [CheckOutcome.SESSION_BUSY]: 4,
      });
      for (const busy of answers.filter(({ outcome }) => outcome === CheckOutcome.SESSION_BUSY))
        expect(busy).toMatchObject({ checkId: "", retryAfterSeconds: 0 });
      const checked = answers.find(({ outcome }) => outcome === CheckOutcome.ALLOWED);
      await report(checked?.checkId ?? "", CheckResult.WRONG);
      expect(await checksLeft(SecretKind.PASSWORD, sessionToken)).toEqual({
        allowed: policy.lockoutAfterFailures - 1,
        refused: CheckOutcome.LOCKED_OUT,
      });
    });

    it("of 5 parallel control answers in a recovery session, checks 1: the session keeps its other answers", async () => {
      const { sessionToken } = await session.createSession({
        ...start,
        state: SessionState.RECOVERY_CHECKQUESTION,
      });
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => reserveCheck(SecretKind.CONTROL_ANSWER, { sessionToken })),
      );
      expect(outcomesOf(answers)).toEqual({
        [CheckOutcome.ALLOWED]: 1,
        [CheckOutcome.SESSION_BUSY]: 4,
      });
      const checked = answers.find(({ outcome }) => outcome === CheckOutcome.ALLOWED);
      await report(checked?.checkId ?? "", CheckResult.WRONG);
      expect(await checksLeft(SecretKind.CONTROL_ANSWER, sessionToken)).toEqual({
        allowed: 2,
        refused: CheckOutcome.SESSION_SPENT,
      });
    });

    it.each([CheckResult.RIGHT, CheckResult.WRONG, CheckResult.UNCHECKED])(
      "holds the session until the check is reported %s, then takes the next",
      async (result) => {
        const { sessionToken } = await session.createSession(start);
        const first = await reserve(SecretKind.APP_CODE, { sessionToken });
        expect((await reserveCheck(SecretKind.PASSWORD, { sessionToken })).outcome).toBe(
          CheckOutcome.SESSION_BUSY,
        );
        await report(first, result);
        expect((await reserveCheck(SecretKind.PASSWORD, { sessionToken })).outcome).toBe(
          CheckOutcome.ALLOWED,
        );
      },
    );

    it("gives the session back when the move that rests on the check reports it", async () => {
      const { sessionToken } = await session.createSession(start);
      const checkId = await reserve(SecretKind.PASSWORD, { sessionToken });
      const moved = await move(sessionToken, SessionState.CHECKPASSWORD, SessionState.CHECKOTP, checkId);
      expect((await reserveCheck(SecretKind.APP_CODE, { sessionToken: moved.sessionToken })).outcome).toBe(
        CheckOutcome.ALLOWED,
      );
      expect((await reserveCheck(SecretKind.APP_CODE, { sessionToken })).outcome).toBe(CheckOutcome.ALLOWED);
    });

    it("gives the session back at once when the reservation is refused or fails", async () => {
      const { sessionToken } = await session.createSession(start);
      for (let i = 0; i < policy.lockoutAfterFailures; i++) await reserve(SecretKind.APP_CODE);
      expect((await reserveCheck(SecretKind.APP_CODE, { sessionToken })).outcome).toBe(
        CheckOutcome.LOCKED_OUT,
      );
      await failThrice();
      const withoutCaptcha = {
        companyId,
        subject: { userId },
        kind: SecretKind.PASSWORD,
        captcha: CaptchaVerdict.UNSPECIFIED,
      };
      expect((await session.reserveSecretCheck({ ...withoutCaptcha, sessionToken })).outcome).toBe(
        CheckOutcome.CAPTCHA_MISSING,
      );
      expect(
        await codeOf(session.reserveSecretCheck({ ...withoutCaptcha, sessionToken, limits: undefined })),
      ).toBe("request.validation.failed");
      expect((await reserveCheck(SecretKind.PASSWORD, { sessionToken })).outcome).toBe(CheckOutcome.ALLOWED);
    });

    it("keeps the sessions apart, and checks without a session as before", async () => {
      const [one, other] = [await session.createSession(start), await session.createSession(start)];
      await reserve(SecretKind.PASSWORD, { sessionToken: one.sessionToken });
      expect((await reserveCheck(SecretKind.PASSWORD, { sessionToken: other.sessionToken })).outcome).toBe(
        CheckOutcome.ALLOWED,
      );
      const without = await Promise.all(Array.from({ length: 3 }, () => reserveCheck(SecretKind.SMS_CODE)));
      expect(outcomesOf(without)).toEqual({ [CheckOutcome.ALLOWED]: 3 });
    });
  });

  describe('the authentication a session carries (docs/api-contract.md, "Assurance")', () => {
    const factor = (kind: FactorKind, amr: string, multiFactor = false) =>
      expect.objectContaining({ kind, amr, multiFactor });
    const password = factor(FactorKind.PASSWORD, "pwd");
    const sms = factor(FactorKind.SMS_CODE, "sms");
    const appCode = factor(FactorKind.APP_CODE, "otp");
    const backupCode = factor(FactorKind.BACKUP_CODE, "otp");
    const federated = (multiFactor = false) => factor(FactorKind.FEDERATED, "fed", multiFactor);
    const passkey = (amr: "hwk" | "swk", userVerified: boolean) =>
      expect.objectContaining({ kind: FactorKind.PASSKEY, amr, userVerified, multiFactor: false });
    const federatedLogin = async (options: { multiFactor?: boolean; at?: Date; user?: string } = {}) =>
      (
        await session.recordFederatedLogin({
          companyId,
          userId: options.user ?? userId,
          authenticatedAt: options.at ?? new Date(),
          multiFactor: options.multiFactor ?? false,
        })
      ).checkId;
    /** A login through the steps: each secret's check reported by the move that rests on it. */
    const logIn = async (first: SecretKind, second?: SecretKind) => {
      const created = await session.createSession(start);
      const firstCheck = await reserve(first);
      if (second === undefined)
        return move(created.sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, firstCheck);
      const atOtp = await move(
        created.sessionToken,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        firstCheck,
      );
      return move(atOtp.sessionToken, SessionState.CHECKOTP, SessionState.AUTHORIZED, await reserve(second));
    };

    it("is level 0, with no amr, factor or time, before the first factor", async () => {
      const created = await session.createSession(start);
      expect(created.session?.authentication).toEqual({ level: 0, amr: [], factors: [] });
    });

    it("is level 1 with a password alone: amr pwd, the factor's time the check's", async () => {
      const before = Date.now();
      const { session: authorized } = await logIn(SecretKind.PASSWORD);
      const authentication = authorized?.authentication;
      expect(authentication).toMatchObject({ level: 1, amr: ["pwd"], factors: [password] });
      const at = authentication?.authenticatedAt?.getTime() ?? 0;
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());
      expect(authentication?.factors[0]?.authenticatedAt?.getTime()).toBe(at);
    });

    it.each([
      ["an SMS code", SecretKind.SMS_CODE, sms, "sms"],
      ["an app code", SecretKind.APP_CODE, appCode, "otp"],
      ["a backup code", SecretKind.BACKUP_CODE, backupCode, "otp"],
    ])("is level 2 with a password and %s: amr pwd, %s and mfa", async (_name, second, secondFactor, amr) => {
      const { session: authorized } = await logIn(SecretKind.PASSWORD, second);
      const authentication = authorized?.authentication;
      expect(authentication).toMatchObject({
        level: 2,
        amr: ["pwd", amr, "mfa"],
        factors: [password, secondFactor],
      });
      expect(authentication?.authenticatedAt).toEqual(authentication?.factors[1]?.authenticatedAt);
    });

    it("is level 1 with an SMS code alone (a user without a password)", async () => {
      const created = await session.createSession({ ...start, state: SessionState.CHECKOTP });
      const { session: authorized } = await move(
        created.sessionToken,
        SessionState.CHECKOTP,
        SessionState.AUTHORIZED,
        await reserve(SecretKind.SMS_CODE),
      );
      expect(authorized?.authentication).toMatchObject({ level: 1, amr: ["sms"], factors: [sms] });
    });

    it("is level 1 with a provider's login, at the provider's time of authentication", async () => {
      const at = new Date(Date.now() - 5 * 60_000);
      const created = await session.createSession({
        ...start,
        state: SessionState.AUTHORIZED,
        rightCheckId: await federatedLogin({ at }),
      });
      expect(created.session?.authentication).toEqual({
        level: 1,
        amr: ["fed"],
        factors: [
          {
            kind: FactorKind.FEDERATED,
            amr: "fed",
            authenticatedAt: at,
            multiFactor: false,
            userVerified: false,
          },
        ],
        authenticatedAt: at,
      });
    });

    it("takes a provider's time of authentication later than now as now", async () => {
      const created = await session.createSession({
        ...start,
        state: SessionState.AUTHORIZED,
        rightCheckId: await federatedLogin({ at: new Date(Date.now() + 3_600_000) }),
      });
      expect(created.session?.authentication?.authenticatedAt?.getTime()).toBeLessThanOrEqual(Date.now());
    });

    it("is level 2 with a provider's login and an app code: amr fed, otp and mfa", async () => {
      const created = await session.createSession({
        ...start,
        state: SessionState.CHECKOTP,
        rightCheckId: await federatedLogin(),
      });
      expect(created.session?.authentication).toMatchObject({ level: 1, amr: ["fed"] });
      const { session: authorized } = await move(
        created.sessionToken,
        SessionState.CHECKOTP,
        SessionState.AUTHORIZED,
        await reserve(SecretKind.APP_CODE),
      );
      expect(authorized?.authentication).toMatchObject({
        level: 2,
        amr: ["fed", "otp", "mfa"],
        factors: [federated(), appCode],
      });
    });

    it("is level 2 with a provider's login whose multi-factor proof the company trusts", async () => {
      const created = await session.createSession({
        ...start,
        state: SessionState.AUTHORIZED,
        rightCheckId: await federatedLogin({ multiFactor: true }),
      });
      expect(created.session?.authentication).toMatchObject({
        level: 2,
        amr: ["fed", "mfa"],
        factors: [federated(true)],
      });
    });

    it.each([
      ["hwk", false],
      ["swk", true],
    ] as const)(
      "is level 2 with a user-verified passkey alone: amr %s (synced: %s) and mfa",
      async (amr, backedUp) => {
        const created = await session.createSession(start);
        const { session: authorized } = await move(
          created.sessionToken,
          SessionState.CHECKPASSWORD,
          SessionState.AUTHORIZED,
          await passkeyCheck({ userVerified: true, backedUp }),
        );
        expect(authorized?.authentication).toMatchObject({
          level: 2,
          amr: [amr, "mfa"],
          factors: [passkey(amr, true)],
        });
      },
    );

    it("is level 1 with a passkey that did not verify the user, alone (a user without a password)", async () => {
      const created = await session.createSession({ ...start, state: SessionState.CHECKOTP });
      const { session: authorized } = await move(
        created.sessionToken,
        SessionState.CHECKOTP,
        SessionState.AUTHORIZED,
        await passkeyCheck({ userVerified: false, backedUp: false }),
      );
      expect(authorized?.authentication).toEqual({
        level: 1,
        amr: ["hwk"],
        factors: [passkey("hwk", false)],
        authenticatedAt: expect.any(Date),
      });
    });

    it.each([
      ["verified", true],
      ["did not verify", false],
    ])(
      "is level 2 with a password and a passkey that %s the user: amr pwd, hwk and mfa",
      async (_, userVerified) => {
        const created = await session.createSession(start);
        const atOtp = await move(
          created.sessionToken,
          SessionState.CHECKPASSWORD,
          SessionState.CHECKOTP,
          await reserve(SecretKind.PASSWORD),
        );
        const { session: authorized } = await move(
          atOtp.sessionToken,
          SessionState.CHECKOTP,
          SessionState.AUTHORIZED,
          await passkeyCheck({ userVerified, backedUp: false }),
        );
        expect(authorized?.authentication).toMatchObject({
          level: 2,
          amr: ["pwd", "hwk", "mfa"],
          factors: [password, passkey("hwk", userVerified)],
        });
      },
    );

    it("adds no factor for a passkey check without identity's proof: the move fails with auth.token.invalid, and the check counts as failed", async () => {
      for (let i = 0; i < policy.lockoutAfterFailures - 1; i++)
        await report(await reserve(SecretKind.PASSKEY), CheckResult.WRONG);
      const created = await session.createSession({ ...start, state: SessionState.CHECKOTP });
      const unproven = await reserve(SecretKind.PASSKEY);
      expect(
        await codeOf(move(created.sessionToken, SessionState.CHECKOTP, SessionState.AUTHORIZED, unproven)),
      ).toBe("auth.token.invalid");
      expect(await session.introspectSession({ sessionToken: created.sessionToken })).toMatchObject({
        session: { state: SessionState.CHECKOTP, authentication: { level: 0 } },
      });
      expect((await budget(SecretKind.PASSKEY)).lockedOut).toBe(true);
    });

    it("is carried through every later move, a password change's included", async () => {
      const created = await session.createSession(start);
      const atOtp = await move(
        created.sessionToken,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        await reserve(SecretKind.PASSWORD),
      );
      const atSetPassword = await move(
        atOtp.sessionToken,
        SessionState.CHECKOTP,
        SessionState.SETPASSWORD,
        await reserve(SecretKind.APP_CODE),
      );
      const expected = atSetPassword.session?.authentication;
      expect(expected).toMatchObject({ level: 2, factors: [password, appCode] });
      await session.claimCredentialChange({ sessionToken: atSetPassword.sessionToken });
      const changed = await session.advanceSession({
        sessionToken: atSetPassword.sessionToken,
        fromState: SessionState.SETPASSWORD,
        toState: SessionState.ACCEPTDISCLAIMERS,
        renewCredentialGeneration: true,
      });
      const authorized = await move(
        changed.sessionToken,
        SessionState.ACCEPTDISCLAIMERS,
        SessionState.AUTHORIZED,
      );
      expect(authorized.session?.authentication).toEqual(expected);
    });

    it("adds no factor for a control answer: a recovery proves no login", async () => {
      const created = await session.createSession({ ...start, state: SessionState.RECOVERY_CHECKQUESTION });
      const moved = await move(
        created.sessionToken,
        SessionState.RECOVERY_CHECKQUESTION,
        SessionState.RECOVERY_SETPASSWORD,
        await reserve(SecretKind.CONTROL_ANSWER, { sessionToken: created.sessionToken }),
      );
      expect(moved.session?.authentication).toMatchObject({ level: 0, factors: [] });
    });

    it("refuses another user's right check with auth.token.invalid: no session is created, none moves", async () => {
      const sessionsOfAnn = async () =>
        (await session.listUserSessions({ companyId, userId })).sessions.map((listed) => listed.sessionId);
      expect(
        await codeOf(
          session.createSession({
            ...start,
            rightCheckId: await reserve(SecretKind.PASSWORD, { user: "u-bob" }),
          }),
        ),
      ).toBe("auth.token.invalid");
      expect(
        await codeOf(
          session.createSession({
            ...start,
            state: SessionState.AUTHORIZED,
            rightCheckId: await federatedLogin({ user: "u-bob" }),
          }),
        ),
      ).toBe("auth.token.invalid");
      expect(await sessionsOfAnn()).toEqual([]);
      const created = await session.createSession(start);
      const bobs = await reserve(SecretKind.PASSWORD, { user: "u-bob" });
      expect(
        await codeOf(move(created.sessionToken, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, bobs)),
      ).toBe("auth.token.invalid");
      const found = await session.introspectSession({ sessionToken: created.sessionToken });
      expect(found).toMatchObject({
        status: TokenStatus.ACTIVE,
        session: { state: SessionState.CHECKPASSWORD, authentication: { level: 0 } },
      });
      expect(await sessionsOfAnn()).toEqual([created.session?.sessionId]);
    });

    it("refuses a right_check_id that names no check waiting for its report: unknown, or used already", async () => {
      expect(await codeOf(session.createSession({ ...start, rightCheckId: "no-such-check" }))).toBe(
        "auth.token.invalid",
      );
      const login = await federatedLogin();
      const once = { ...start, state: SessionState.AUTHORIZED, rightCheckId: login };
      expect(await codeOf(session.createSession(once))).toBe("ok");
      expect(await codeOf(session.createSession(once))).toBe("auth.token.invalid");
    });

    it("is told to consumers (IntrospectToken) and in the user's own list of sessions", async () => {
      const { sessionToken, session: authorized } = await logIn(SecretKind.PASSWORD, SecretKind.SMS_CODE);
      const expected = authorized?.authentication;
      expect(expected).toMatchObject({ level: 2, amr: ["pwd", "sms", "mfa"] });
      const consumer = await introspection.introspectToken({ sessionToken });
      expect(consumer.session?.authentication).toEqual(expected);
      const listed = await session.listOwnSessions({ sessionToken });
      expect(listed.sessions.map((own) => own.authentication)).toEqual([expected]);
    });
  });
});
