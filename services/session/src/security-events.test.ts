import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OriginOf } from "@auth/events";
import { eventFromJson, systemOrigin } from "@auth/events";
import {
  clientAddressKey,
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
  traceIdKey,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles } from "@auth/grpc-kit/dev-pki";
import { MemoryKeyValueStore } from "@auth/kv";
import { ActorKind, Factor, Outcome } from "@auth/proto/events";
import {
  CaptchaVerdict,
  CheckResult,
  type CreateSessionRequest,
  SecretKind,
  SessionServiceService,
  SessionState,
} from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { Metadata } from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sessionService } from "./server.js";
import { CheckBudget } from "./store/check-budget.js";
import { KnownDevices } from "./store/known-devices.js";
import { PasskeyChallenges } from "./store/passkey-challenges.js";
import { SessionStore } from "./store/session-store.js";
import { withLimits } from "./testing.js";

type Client = ServiceClient<typeof SessionServiceService>;
const holders = ["session", "gateway", "identity", "operator"] as const;
type Holder = (typeof holders)[number];
const adminToken = "admin-token-for-the-session-events-tests-0123";
const companyId = "c1";
const userId = "u-ann";
const loginId = "ann@example.com";
const start: CreateSessionRequest = {
  companyId,
  userId,
  state: SessionState.CHECKPASSWORD,
  loginId,
  passwordChangeRequired: false,
  lockoutKind: SecretKind.UNSPECIFIED,
  disclaimersRequired: [],
  userAgent: "Mozilla/5.0",
  clientAddress: "192.0.2.1",
  passkeyDiscovery: false,
  deviceId: "",
};
/** The company's cap of sessions per user, as its callers send it in the test. */
let maxSessionsPerUser = 0;
const limits = () => ({
  captchaAfterFailures: 3,
  lockoutAfterFailures: 10,
  failureWindowSeconds: 900,
  newDeviceNoticeDays: 90,
  maxSessionsPerUser,
});

const dataDir = mkdtempSync(join(tmpdir(), "session-events-"));
let pki: Record<Holder, TlsFiles>;

beforeAll(async () => {
  pki = (await ensureDevPki(join(dataDir, "pki"), [...holders])) as Record<Holder, TlsFiles>;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * The events the service records, over mutual TLS (the actor is named from the caller's
 * certificate), in the in-process store's outbox (docs/decisions.md, "Security events").
 */
describe("Security events", () => {
  let kv: MemoryKeyValueStore;
  let sessions: SessionStore;
  let server: RunningGrpcServer;
  const clients = {} as Record<Exclude<Holder, "session">, Client>;
  /** Every token and token hash the test saw: no event may hold one. */
  let secrets: string[];

  beforeEach(async () => {
    maxSessionsPerUser = 0;
    kv = new MemoryKeyValueStore();
    secrets = [loginId];
    const logger = createLogger("session", "silent");
    const clock = { now: () => Date.now() };
    sessions = new SessionStore(kv, clock, { of: () => 15 * 60_000 });
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      transport: mtlsTransport(pki.session),
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
      ],
    });
    for (const holder of ["gateway", "identity", "operator"] as const) {
      clients[holder] = withLimits(
        createServiceClient(SessionServiceService, `127.0.0.1:${server.port}`, {
          deadlineMs: 10_000,
          adminToken: holder === "operator" ? adminToken : undefined,
          transport: mtlsTransport(pki[holder]),
          server: "session",
        }),
        limits,
      );
    }
  });
  afterEach(async () => {
    const payloads = await recorded();
    for (const payload of payloads) for (const secret of secrets) expect(payload).not.toContain(secret);
    for (const client of Object.values(clients)) client.close();
    await server.stop(100);
    await kv.close();
  });

  const recorded = async () => (await kv.outbox.read(1_000)).map((entry) => entry.payload);
  const events = async () => (await recorded()).map(eventFromJson);
  const gateway = () => clients.gateway;

  /** Keeps the token and the hash the store keeps of it, for the check that no event holds either. */
  const remember = async (token: string, sessionId: string) => {
    const stored = await kv.get(`session:${sessionId}`);
    secrets.push(token, ...(stored ? [JSON.parse(stored).tokenHash as string] : []));
    return token;
  };
  /** A right check of the user's secret of this kind, reported by the session move that rests on it. */
  const rightCheck = async (kind: SecretKind, sessionToken?: string) => {
    // A password is identity's to reserve, as it compares it.
    const reserver = kind === SecretKind.PASSWORD ? clients.identity : gateway();
    const reserved = await reserver.reserveSecretCheck({
      companyId,
      subject: { userId },
      kind,
      captcha: kind === SecretKind.PASSWORD ? CaptchaVerdict.PASSED : CaptchaVerdict.UNSPECIFIED,
      sessionToken,
    });
    return reserved.checkId;
  };
  const create = async (state: SessionState, rightCheckId?: string) => {
    const created = await gateway().createSession({ ...start, state, rightCheckId });
    const sessionId = created.session?.sessionId ?? "";
    return { token: await remember(created.sessionToken, sessionId), sessionId };
  };
  const authorized = () =>
    rightCheck(SecretKind.PASSWORD).then((checkId) => create(SessionState.AUTHORIZED, checkId));
  const move = async (
    sessionToken: string,
    fromState: SessionState,
    toState: SessionState,
    rightCheckId?: string,
  ) => {
    const moved = await gateway().advanceSession({
      sessionToken,
      fromState,
      toState,
      rightCheckId,
      renewCredentialGeneration: false,
    });
    return remember(moved.sessionToken, moved.session?.sessionId ?? "");
  };
  const byUser = { kind: ActorKind.USER, id: userId, certificateSubject: "", certificateSha256: "" };
  const ofType = async (type: string) => (await events()).filter((event) => event.type === type);

  describe("auth.login.succeeded", () => {
    it("is recorded as the session becomes authorized, with its factors in order and the level they reach", async () => {
      const { token, sessionId } = await create(SessionState.CHECKPASSWORD);
      const checkOtp = await move(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        await rightCheck(SecretKind.PASSWORD),
      );
      expect(await events()).toEqual([]);
      await move(
        checkOtp,
        SessionState.CHECKOTP,
        SessionState.AUTHORIZED,
        await rightCheck(SecretKind.SMS_CODE),
      );
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "auth.login.succeeded",
          source: "auth-suite/session",
          subject: userId,
          companyid: companyId,
          userid: userId,
          sessionid: sessionId,
          outcome: Outcome.SUCCEEDED,
          actor: byUser,
          login: { methods: [Factor.PASSWORD, Factor.SMS_CODE], level: 2 },
        }),
      ]);
    });

    it("carries the trace id and the client's address the gateway sent with the call", async () => {
      const metadata = new Metadata();
      metadata.set(traceIdKey, "4bf92f3577b34da6a3ce929d0e0e4736");
      metadata.set(clientAddressKey, "198.51.100.7");
      const checkId = await rightCheck(SecretKind.PASSWORD);
      await gateway().createSession(
        { ...start, state: SessionState.AUTHORIZED, rightCheckId: checkId },
        { metadata },
      );
      expect(await events()).toEqual([
        expect.objectContaining({
          traceid: "4bf92f3577b34da6a3ce929d0e0e4736",
          clientaddress: "198.51.100.7",
        }),
      ]);
    });

    it("is recorded for a session that starts authorized, and not again for a move within authorized", async () => {
      const { token, sessionId } = await authorized();
      await move(token, SessionState.AUTHORIZED, SessionState.AUTHORIZED);
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "auth.login.succeeded",
          sessionid: sessionId,
          login: { methods: [Factor.PASSWORD], level: 1 },
        }),
      ]);
    });

    it("is recorded once of parallel authorizations of one session: a move that lost the compare-and-set records nothing", async () => {
      let lost = 0;
      // A move writes the session with a compare-and-set, first of its writes (session-store.ts, advance).
      const writeInOrder = kv.writeInOrder.bind(kv);
      kv.writeInOrder = async (writes) => {
        const made = await writeInOrder(writes);
        if (writes[0]?.op === "compareAndSet" && made[0] === false) lost += 1;
        return made;
      };
      const { token } = await create(SessionState.CHECKPASSWORD);
      const password = { rightCheck: { userId, factor: { kind: "password" as const, at: Date.now() } } };
      const asUser: OriginOf = (id) => ({ ...systemOrigin, actor: { ...byUser, id } });
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () =>
          sessions.advance(token, SessionState.CHECKPASSWORD, SessionState.AUTHORIZED, password, asUser),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect(lost).toBeGreaterThan(0);
      expect(await ofType("auth.login.succeeded")).toHaveLength(1);
    });

    it("is not recorded for a session that never becomes authorized", async () => {
      const { token } = await create(SessionState.CHECKPASSWORD);
      await move(
        token,
        SessionState.CHECKPASSWORD,
        SessionState.CHECKOTP,
        await rightCheck(SecretKind.PASSWORD),
      );
      await create(SessionState.RECOVERY_CHECKOTP);
      expect(await ofType("auth.login.succeeded")).toEqual([]);
    });
  });

  describe("auth.session.revoked", () => {
    const revoked = (reason: string, allOfUser: boolean, sessionid = "") =>
      expect.objectContaining({
        type: "auth.session.revoked",
        subject: userId,
        userid: userId,
        sessionid,
        outcome: Outcome.SUCCEEDED,
        actor: byUser,
        sessionRevoked: { reason, allOfUser },
      });

    it("is recorded once for a logout (the session's id, never its token); a second revocation records nothing", async () => {
      const { token, sessionId } = await create(SessionState.CHECKPASSWORD);
      expect((await gateway().revokeSession({ sessionToken: token })).revoked).toBe(true);
      expect((await gateway().revokeSession({ sessionToken: token })).revoked).toBe(false);
      expect(await events()).toEqual([revoked("logout", false, sessionId)]);
    });

    it("is recorded when the user ends one session, and once for all the others; none when there are none", async () => {
      const current = await authorized();
      const one = await authorized();
      await authorized();
      await authorized();
      await gateway().endOwnSessions({ sessionToken: current.token, sessionId: one.sessionId });
      expect((await gateway().endOwnSessions({ sessionToken: current.token, others: true })).ended).toBe(2);
      expect((await gateway().endOwnSessions({ sessionToken: current.token, others: true })).ended).toBe(0);
      expect(await ofType("auth.session.revoked")).toEqual([
        revoked("ended_by_user", false, one.sessionId),
        revoked("ended_by_user", true),
      ]);
    });

    it("is recorded once as a claim for a password change ends the user's other sessions, and not as the claim is resumed", async () => {
      await authorized();
      await authorized();
      const { token } = await create(SessionState.RECOVERY_SETPASSWORD);
      await gateway().claimCredentialChange({ sessionToken: token, retryKey: "r1" });
      await gateway().claimCredentialChange({ sessionToken: token, retryKey: "r1" });
      expect(await ofType("auth.session.revoked")).toEqual([revoked("password_changed", true)]);
    });

    it("is recorded once as a finished recovery ends every session of the user; none when none is left", async () => {
      await authorized();
      await create(SessionState.RECOVERY_SETPASSWORD);
      expect((await gateway().revokeUserSessions({ companyId, userId })).revoked).toBe(2);
      expect((await gateway().revokeUserSessions({ companyId, userId })).revoked).toBe(0);
      expect(await ofType("auth.session.revoked")).toEqual([revoked("recovery", true)]);
    });

    it("is recorded as identity ends the sessions of a user whose credentials it changed, by the suite", async () => {
      await authorized();
      await clients.identity.revokeUserSessions({ companyId, userId });
      expect(await ofType("auth.session.revoked")).toEqual([
        expect.objectContaining({
          sessionRevoked: { reason: "credentials_changed", allOfUser: true },
          actor: { kind: ActorKind.SYSTEM, id: "", certificateSubject: "", certificateSha256: "" },
        }),
      ]);
    });

    it("is recorded, by the user whose sign-in reached the cap, for each session the cap ends", async () => {
      maxSessionsPerUser = 2;
      const signedIn = [];
      for (let i = 0; i < 4; i++) {
        const checkId = await rightCheck(SecretKind.PASSWORD);
        const { session, sessionToken } = await gateway().createSession({
          ...start,
          state: SessionState.AUTHORIZED,
          rightCheckId: checkId,
        });
        await remember(sessionToken, session?.sessionId ?? "");
        signedIn.push({ id: session?.sessionId ?? "", at: session?.createdAt?.getTime() ?? 0 });
      }
      // The two oldest by authorization, of two in one millisecond the lower id.
      const [oldest, older] = signedIn.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
      expect(await ofType("auth.session.revoked")).toEqual(
        expect.arrayContaining([
          revoked("session_cap", false, oldest?.id),
          revoked("session_cap", false, older?.id),
        ]),
      );
      expect(await ofType("auth.session.revoked")).toHaveLength(2);
    });

    it("is recorded as a recovery session's last wrong control answer ends it", async () => {
      const { token, sessionId } = await create(SessionState.RECOVERY_CHECKQUESTION);
      for (let answer = 0; answer < 3; answer++) {
        const checkId = await rightCheck(SecretKind.CONTROL_ANSWER, token);
        await gateway().reportSecretCheck({ companyId, checkId, result: CheckResult.WRONG });
      }
      expect(await ofType("auth.session.revoked")).toEqual([revoked("answers_spent", false, sessionId)]);
    });
  });

  describe("auth.account.locked", () => {
    const bySuite = { kind: ActorKind.SYSTEM, id: "", certificateSubject: "", certificateSha256: "" };
    const lockoutAfterFailures = 10;
    const windowMs = 900_000;
    /** The callers that reserve each kind of secret (access.ts). */
    const budgets = [
      { kind: SecretKind.PASSWORD, factor: Factor.PASSWORD, reserver: "identity" },
      { kind: SecretKind.SMS_CODE, factor: Factor.SMS_CODE, reserver: "gateway" },
      { kind: SecretKind.APP_CODE, factor: Factor.APP_CODE, reserver: "identity" },
      { kind: SecretKind.BACKUP_CODE, factor: Factor.BACKUP_CODE, reserver: "gateway" },
      { kind: SecretKind.PASSKEY, factor: Factor.PASSKEY, reserver: "identity" },
    ] as const;
    interface Answer {
      subject?: { userId: string } | { loginId: string };
      reserver?: "gateway" | "identity";
      metadata?: Metadata;
      /** The recovery session a control answer is given in. */
      sessionToken?: string;
    }
    /** A check of the subject's secret reserved, then reported wrong; false when the budget refused it. */
    const wrongAnswer = async (
      kind: SecretKind,
      { subject = { userId }, reserver = "gateway", metadata = new Metadata(), sessionToken }: Answer = {},
    ) => {
      const client = clients[reserver];
      const reserved = await client.reserveSecretCheck({
        companyId,
        subject,
        kind,
        captcha: kind === SecretKind.PASSWORD ? CaptchaVerdict.PASSED : CaptchaVerdict.UNSPECIFIED,
        sessionToken,
      });
      if (!reserved.checkId) return false;
      await client.reportSecretCheck(
        { companyId, checkId: reserved.checkId, result: CheckResult.WRONG },
        { metadata },
      );
      return true;
    };

    it("is recorded once for a burst of parallel wrong answers: by the suite, with the factor, the end of the lock-out and the request's trace", async () => {
      const metadata = new Metadata();
      metadata.set(traceIdKey, "4bf92f3577b34da6a3ce929d0e0e4736");
      metadata.set(clientAddressKey, "198.51.100.7");
      const before = Date.now();
      const answered = await Promise.all(
        Array.from({ length: 30 }, () => wrongAnswer(SecretKind.SMS_CODE, { metadata })),
      );
      const after = Date.now();
      expect(answered.filter(Boolean)).toHaveLength(lockoutAfterFailures);
      const locked = await ofType("auth.account.locked");
      expect(locked).toEqual([
        expect.objectContaining({
          source: "auth-suite/session",
          subject: userId,
          companyid: companyId,
          userid: userId,
          sessionid: "",
          traceid: "4bf92f3577b34da6a3ce929d0e0e4736",
          clientaddress: "198.51.100.7",
          outcome: Outcome.FAILED,
          actor: bySuite,
          lockout: { factor: Factor.SMS_CODE, until: expect.any(Date) },
        }),
      ]);
      const until = locked[0]?.lockout?.until?.getTime() ?? 0;
      expect(until).toBeGreaterThanOrEqual(before + windowMs - 1_000);
      expect(until).toBeLessThanOrEqual(after + windowMs + 1_000);
    });

    it("is recorded once of parallel reports of the check that spends the budget: the one that takes it", async () => {
      for (let failure = 1; failure < lockoutAfterFailures; failure++) await wrongAnswer(SecretKind.SMS_CODE);
      const checkId = await rightCheck(SecretKind.SMS_CODE);
      await Promise.all(
        Array.from({ length: 5 }, () =>
          gateway().reportSecretCheck({ companyId, checkId, result: CheckResult.WRONG }),
        ),
      );
      expect(await ofType("auth.account.locked")).toHaveLength(1);
    });

    it.each(budgets)(
      "is recorded as the last wrong check of its kind locks the user out: $kind",
      async ({ kind, factor, reserver }) => {
        for (let failure = 1; failure < lockoutAfterFailures; failure++)
          await wrongAnswer(kind, { reserver });
        expect(await ofType("auth.account.locked")).toEqual([]);
        expect(await wrongAnswer(kind, { reserver })).toBe(true);
        expect(await wrongAnswer(kind, { reserver })).toBe(false);
        expect(await events()).toEqual([
          expect.objectContaining({
            type: "auth.account.locked",
            lockout: expect.objectContaining({ factor }),
          }),
        ]);
      },
    );

    it.each([
      { result: CheckResult.RIGHT, said: "right" },
      { result: CheckResult.UNCHECKED, said: "unchecked" },
    ])(
      "is not recorded as the check that took the budget's last failure is reported $said: nothing is locked",
      async ({ result }) => {
        for (let failure = 1; failure < lockoutAfterFailures; failure++)
          await wrongAnswer(SecretKind.SMS_CODE);
        const checkId = await rightCheck(SecretKind.SMS_CODE);
        await gateway().reportSecretCheck({ companyId, checkId, result });
        expect(await ofType("auth.account.locked")).toEqual([]);
      },
    );

    it("is recorded as the last wrong control answer locks recovery by question out, over the recovery sessions it took", async () => {
      let given = 0;
      while (given < lockoutAfterFailures) {
        const { token } = await create(SessionState.RECOVERY_CHECKQUESTION);
        for (let answer = 0; answer < 3 && given < lockoutAfterFailures; answer++, given++)
          await wrongAnswer(SecretKind.CONTROL_ANSWER, { sessionToken: token });
      }
      expect(await ofType("auth.account.locked")).toEqual([
        expect.objectContaining({
          userid: userId,
          lockout: expect.objectContaining({ factor: Factor.RECOVERY_QUESTION }),
        }),
      ]);
    });

    it("is recorded as a passkey check said right without identity's proof takes the last failure: it counts as wrong", async () => {
      for (let failure = 1; failure < lockoutAfterFailures; failure++)
        await wrongAnswer(SecretKind.PASSKEY, { reserver: "identity" });
      const { checkId } = await clients.identity.reserveSecretCheck({
        companyId,
        subject: { userId },
        kind: SecretKind.PASSKEY,
        captcha: CaptchaVerdict.UNSPECIFIED,
      });
      await expect(create(SessionState.AUTHORIZED, checkId)).rejects.toThrow();
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "auth.account.locked",
          lockout: expect.objectContaining({ factor: Factor.PASSKEY }),
        }),
      ]);
    });

    it("is not recorded for the budget of a login ID that names no user: the event could name no account, never the login ID", async () => {
      const subject = { loginId: "nobody@example.com" };
      secrets.push(subject.loginId);
      for (let failure = 0; failure < lockoutAfterFailures; failure++)
        expect(await wrongAnswer(SecretKind.PASSWORD, { subject, reserver: "identity" })).toBe(true);
      expect(await wrongAnswer(SecretKind.PASSWORD, { subject, reserver: "identity" })).toBe(false);
      expect(await events()).toEqual([]);
    });
  });

  describe("auth.recovery.started and auth.recovery.finished", () => {
    const recovery = (type: string, method: string, sessionid: string) =>
      expect.objectContaining({
        type,
        source: "auth-suite/session",
        subject: userId,
        userid: userId,
        sessionid,
        outcome: Outcome.SUCCEEDED,
        actor: byUser,
        recovery: { method },
      });
    const methods = [
      { method: "sms", state: SessionState.RECOVERY_CHECKOTP, kind: SecretKind.SMS_CODE },
      { method: "question", state: SessionState.RECOVERY_CHECKQUESTION, kind: SecretKind.CONTROL_ANSWER },
    ];

    it.each(methods)(
      "are recorded once each as a recovery by $method starts, and as its right answer moves it to recovery-setpassword",
      async ({ method, state, kind }) => {
        const { token, sessionId } = await create(state);
        expect(await events()).toEqual([recovery("auth.recovery.started", method, sessionId)]);
        await gateway().reportSecretCheck({
          companyId,
          checkId: await rightCheck(kind, kind === SecretKind.CONTROL_ANSWER ? token : undefined),
          result: CheckResult.RIGHT,
        });
        const moves = await Promise.allSettled(
          Array.from({ length: 5 }, () =>
            gateway().advanceSession({
              sessionToken: token,
              fromState: state,
              toState: SessionState.RECOVERY_SETPASSWORD,
              renewCredentialGeneration: false,
              retryKey: "r1",
            }),
          ),
        );
        const moved = moves.flatMap((move) => (move.status === "fulfilled" ? [move.value] : []));
        expect(moved.length).toBeGreaterThan(0);
        for (const { sessionToken } of moved) await remember(sessionToken, sessionId);
        expect(await events()).toEqual([
          recovery("auth.recovery.started", method, sessionId),
          recovery("auth.recovery.finished", method, sessionId),
        ]);
      },
    );

    it("are not recorded by session for a recovery by e-mail link, whose link the recovery service records", async () => {
      const { token } = await create(SessionState.RECOVERY_SETPASSWORD);
      await gateway().claimCredentialChange({ sessionToken: token });
      await gateway().revokeUserSessions({ companyId, userId });
      expect((await events()).map((event) => event.type)).toEqual(["auth.session.revoked"]);
    });

    it("finish is not recorded for a recovery that ends without a right answer", async () => {
      const { token, sessionId } = await create(SessionState.RECOVERY_CHECKQUESTION);
      for (let answer = 0; answer < 3; answer++) {
        const checkId = await rightCheck(SecretKind.CONTROL_ANSWER, token);
        await gateway().reportSecretCheck({ companyId, checkId, result: CheckResult.WRONG });
      }
      expect((await events()).map((event) => event.type)).toEqual([
        "auth.recovery.started",
        "auth.session.revoked",
      ]);
      expect((await events())[0]).toEqual(recovery("auth.recovery.started", "question", sessionId));
    });
  });

  describe("admin.session.revoked", () => {
    const byOperator = {
      kind: ActorKind.OPERATOR,
      id: "spiffe://auth-suite/operator",
      certificateSubject: expect.stringContaining("operator"),
      certificateSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    };

    it("is an operator's revocation of a session, naming the operator by certificate", async () => {
      const { token, sessionId } = await create(SessionState.CHECKPASSWORD);
      await clients.operator.revokeSession({ sessionToken: token });
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "admin.session.revoked",
          subject: userId,
          sessionid: sessionId,
          outcome: Outcome.SUCCEEDED,
          actor: byOperator,
          clientaddress: "",
          adminChange: { resource: "session", resourceId: sessionId, action: "revoked", fields: [] },
        }),
      ]);
    });

    it("is one event for an operator's revocation of every session of a user; none when there are none", async () => {
      await create(SessionState.CHECKPASSWORD);
      await create(SessionState.CHECKPASSWORD);
      await clients.operator.revokeUserSessions({ companyId, userId });
      await clients.operator.revokeUserSessions({ companyId, userId });
      expect(await events()).toEqual([
        expect.objectContaining({
          type: "admin.session.revoked",
          subject: userId,
          sessionid: "",
          actor: byOperator,
          adminChange: { resource: "session", resourceId: "", action: "revoked_all", fields: [] },
        }),
      ]);
    });
  });
});
