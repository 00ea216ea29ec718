import { createHash } from "node:crypto";
import { AuthError } from "@auth/errors";
import {
  type AccessTable,
  type AsyncService,
  connectIntrospection,
  grpcTransportEnvironment,
  implement,
  type RunningGrpcServer,
  sessionClientEnvironment,
  startGrpcServer,
  transportOf,
} from "@auth/grpc-kit";
import { AuditServiceService, type OwnEvent } from "@auth/proto/audit";
import { ActorKind, Factor, Outcome } from "@auth/proto/events";
import { TokenStatus } from "@auth/proto/introspection";
import { createLogger, parseConfig } from "@auth/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { configSchema } from "../config.js";
import {
  call,
  createCompany,
  createUser,
  expectError,
  expectSuccess,
  type TestCompany,
  type TestUser,
  updateCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

/** An event of the audit service's in-memory list: whose it is, and what ListOwnEvents shows of it. */
interface StoredEvent {
  companyId: string;
  userId: string;
  sessionId: string;
  event: Omit<OwnEvent, "currentSession">;
}

/**
 * The audit service at its gRPC boundary: ListOwnEvents as the contract has it (the token's user
 * asked of the session service, that user's events as stored, newest first, 20 unless asked), from
 * a list the test fills.
 */
const stored: StoredEvent[] = [];

const notCalled = async (): Promise<never> => {
  throw new Error("not called in this test");
};

const auditAccess: AccessTable<typeof AuditServiceService> = {
  listEvents: ["operator"],
  listOwnEvents: ["gateway"],
  getRetention: ["operator"],
  setRetention: ["operator"],
  createWebhook: ["operator"],
  listWebhooks: ["operator"],
  updateWebhook: ["operator"],
  deleteWebhook: ["operator"],
  rotateWebhookSecret: ["operator"],
  listDeliveries: ["operator"],
  replayDeliveries: ["operator"],
};

async function startAudit(env: NodeJS.ProcessEnv): Promise<RunningGrpcServer> {
  const settings = parseConfig(z.object({ ...grpcTransportEnvironment, ...sessionClientEnvironment }), env);
  const introspection = connectIntrospection(settings);
  const logger = createLogger("audit-for-tests", "silent");
  const methods: AsyncService<typeof AuditServiceService> = {
    listEvents: notCalled,
    getRetention: notCalled,
    setRetention: notCalled,
    createWebhook: notCalled,
    listWebhooks: notCalled,
    updateWebhook: notCalled,
    deleteWebhook: notCalled,
    rotateWebhookSecret: notCalled,
    listDeliveries: notCalled,
    replayDeliveries: notCalled,
    async listOwnEvents(request) {
      const { status, session } = await introspection.introspectToken({ sessionToken: request.sessionToken });
      if (status === TokenStatus.EXPIRED) throw new AuthError("auth.token.expired");
      if (status === TokenStatus.NOT_AUTHORIZED) throw new AuthError("auth.session.invalid");
      if (status !== TokenStatus.ACTIVE || !session) throw new AuthError("auth.token.invalid");
      const own = stored.filter(
        (entry) => entry.companyId === session.companyId && entry.userId === session.userId,
      );
      return {
        events: own.slice(0, request.limit || 20).map((entry) => ({
          ...entry.event,
          currentSession: entry.sessionId === session.sessionId,
        })),
      };
    },
  };
  const server = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    transport: transportOf(settings),
    logger,
    services: [
      {
        name: "auth.audit.v1.AuditService",
        definition: AuditServiceService,
        implementation: implement(AuditServiceService, methods, { logger, access: auditAccess }),
      },
    ],
  });
  return {
    ...server,
    async stop(graceMs) {
      await server.stop(graceMs);
      introspection.close();
    },
  };
}

const suite = useInProcessSuite({ audit: startAudit });

/** The user's own security events, beyond the spec (docs/api-contract.md, "The user's security events"). */
describe("auth/events", () => {
  let company: TestCompany;

  const signIn = async (user: TestUser, tenant = company) => {
    const authorized = await call(tenant.code, "checkcredentials", {
      apiKey: tenant.apiKey,
      body: { login_id: user.loginName, password: user.password },
    });
    expect(authorized.body.session_state, JSON.stringify(authorized.body)).toBe("authorized");
    return String(authorized.body.session_token);
  };
  const list = (token: string, body?: unknown, tenant = company) =>
    call(tenant.code, "events", { apiKey: tenant.apiKey, token, body });
  const eventsOf = async (token: string, body?: unknown) => {
    const response = await list(token, body);
    expectSuccess(response, ["events"]);
    return response.body.events as Record<string, unknown>[];
  };
  /** The id the session service gives the session of this token, as auth/sessions lists it. */
  const sessionIdOf = async (token: string) => {
    const listed = await call(company.code, "sessions", { apiKey: company.apiKey, token });
    const sessions = listed.body.sessions as Array<{ session_id: string; current: boolean }>;
    return sessions.find((session) => session.current)?.session_id ?? "";
  };
  let sequence = 0;
  /** Stores an event of the user's for the audit service, a second after the one stored before. */
  const store = (
    user: TestUser,
    event: Partial<StoredEvent["event"]> & { sessionId?: string; tenant?: TestCompany } = {},
  ) => {
    sequence += 1;
    const { sessionId = "", tenant = company, ...fields } = event;
    const id = `019ab7c2-5d41-7e3a-9f10-${String(sequence).padStart(12, "0")}`;
    stored.unshift({
      companyId: tenant.id,
      userId: user.id,
      sessionId,
      event: {
        id,
        type: "auth.login.succeeded",
        time: new Date(Date.UTC(2026, 10, 24, 7, 0, sequence)),
        outcome: Outcome.SUCCEEDED,
        clientAddress: "198.51.100.23",
        factor: Factor.PASSWORD,
        actor: ActorKind.USER,
        ...fields,
      },
    });
    return id;
  };

  beforeAll(async () => {
    company = await createCompany();
  });

  it("lists the user's own events newest first, each with its type, time, outcome, address, factor, actor and whether it is this session's", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const sessionId = await sessionIdOf(token);
    const failed = store(user, {
      type: "auth.login.failed",
      outcome: Outcome.FAILED,
      clientAddress: "203.0.113.9",
    });
    const operators = store(user, {
      type: "admin.factor.changed",
      clientAddress: "",
      factor: Factor.UNSPECIFIED,
      actor: ActorKind.OPERATOR,
    });
    const login = store(user, { factor: Factor.APP_CODE, sessionId });
    store(await createUser(company));
    expect(await eventsOf(token)).toEqual([
      {
        id: login,
        type: "auth.login.succeeded",
        time: "2026-11-24T07:00:03.000Z",
        outcome: "succeeded",
        client_address: "198.51.100.23",
        factor: "app_code",
        actor: "user",
        current_session: true,
      },
      {
        id: operators,
        type: "admin.factor.changed",
        time: "2026-11-24T07:00:02.000Z",
        outcome: "succeeded",
        client_address: null,
        factor: null,
        actor: "operator",
        current_session: false,
      },
      {
        id: failed,
        type: "auth.login.failed",
        time: "2026-11-24T07:00:01.000Z",
        outcome: "failed",
        client_address: "203.0.113.9",
        factor: "password",
        actor: "user",
        current_session: false,
      },
    ]);
  });

  it("names every factor and kind of actor of the contract", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const factors = {
      password: Factor.PASSWORD,
      sms_code: Factor.SMS_CODE,
      app_code: Factor.APP_CODE,
      backup_code: Factor.BACKUP_CODE,
      passkey: Factor.PASSKEY,
      oauth: Factor.OAUTH,
      recovery_question: Factor.RECOVERY_QUESTION,
      email_link: Factor.EMAIL_LINK,
    };
    for (const factor of Object.values(factors)) store(user, { factor });
    for (const actor of [ActorKind.USER, ActorKind.OPERATOR, ActorKind.SYSTEM]) store(user, { actor });
    const listed = await eventsOf(token);
    expect(listed.slice(0, 3).map((event) => event.actor)).toEqual(["system", "operator", "user"]);
    expect(
      listed
        .slice(3)
        .map((event) => event.factor)
        .reverse(),
    ).toEqual(Object.keys(factors));
  });

  it("answers an actor or outcome the contract gives no name for as null, never a guess or a 500", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    store(user, { actor: ActorKind.UNSPECIFIED, outcome: Outcome.UNSPECIFIED });
    expect(await eventsOf(token)).toEqual([expect.objectContaining({ actor: null, outcome: null })]);
  });

  it("answers no token, token hash or login ID", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    store(user, { sessionId: await sessionIdOf(token) });
    const text = JSON.stringify((await list(token)).body);
    expect(text).toContain("current_session");
    for (const secret of [
      token,
      createHash("sha256").update(token).digest("hex"),
      createHash("sha256").update(token).digest("base64url"),
      user.loginName,
    ])
      expect(text).not.toContain(secret);
  });

  it("gives the 20 newest unless asked, and as many as asked from 1 to 100", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const ids = Array.from({ length: 25 }, () => store(user)).reverse();
    expect((await eventsOf(token)).map((event) => event.id)).toEqual(ids.slice(0, 20));
    expect((await eventsOf(token, {})).map((event) => event.id)).toEqual(ids.slice(0, 20));
    expect((await eventsOf(token, { limit: 1 })).map((event) => event.id)).toEqual(ids.slice(0, 1));
    expect((await eventsOf(token, { limit: 100 })).map((event) => event.id)).toEqual(ids);
  });

  it.each([0, 101, -1, 2.5, "5", null])("refuses a limit of %j", async (limit) => {
    const token = await signIn(await createUser(company));
    expectError(await list(token, { limit }), 400, "request.validation.failed");
  });

  it("is for an authorized session only", async () => {
    const user = await createUser(company);
    const login = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName },
    });
    expectError(await list(String(login.body.session_token)), 409, "auth.session.invalid");
    expectError(await call(company.code, "events", { apiKey: company.apiKey }), 401, "auth.header.missing");
    const token = await signIn(user);
    expectSuccess(await call(company.code, "logout", { apiKey: company.apiKey, token }), []);
    expectError(await list(token), 401, "auth.token.invalid");
  });

  it("is served while the company is suspended, like the user's sessions", async () => {
    const suspended = await createCompany();
    const user = await createUser(suspended);
    const token = await signIn(user, suspended);
    store(user, { tenant: suspended });
    await updateCompany(suspended, { suspended: true });
    const response = await list(token, undefined, suspended);
    expectSuccess(response, ["events"]);
    expect(response.body.events).toHaveLength(1);
  });

  // Last: the audit service stays down.
  it("answers 503 service.unavailable before the call's deadline while the audit service is down; the other flows go on", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    await suite().stopAuditService();
    const deadlineMs = configSchema.parse({ GRPC_PLAINTEXT_DEV: "true" }).GRPC_DEADLINE_MS;
    const started = performance.now();
    expectError(await list(token), 503, "service.unavailable");
    expect(performance.now() - started).toBeLessThan(deadlineMs);
    expectSuccess(await call(company.code, "sessions", { apiKey: company.apiKey, token }), ["sessions"]);
    await signIn(await createUser(company));
  });
});
