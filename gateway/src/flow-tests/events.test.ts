import { createHash, randomUUID } from "node:crypto";
import { type AuditForTests, startAuditForTests } from "@auth/audit/testing";
import { type Actor, ActorKind, type Event, Factor, Outcome } from "@auth/proto/events";
import { createLogger } from "@auth/runtime";
import { beforeAll, describe, expect, it } from "vitest";
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

let audit: AuditForTests | undefined;

const suite = useInProcessSuite({
  async audit(env, databaseUrl) {
    audit = await startAuditForTests({ env, databaseUrl, logger: createLogger("audit-for-tests", "silent") });
    return audit;
  },
});

/** The actor of a change, as the services name it from the caller they authenticated. */
const userActor = (user: TestUser): Actor => ({
  kind: ActorKind.USER,
  id: user.id,
  certificateSubject: "",
  certificateSha256: "",
});
const operatorActor: Actor = {
  kind: ActorKind.OPERATOR,
  id: "spiffe://auth-suite/operator",
  certificateSubject: "CN=operator-on-call",
  certificateSha256: "5f".repeat(32),
};
const systemActor: Actor = { kind: ActorKind.SYSTEM, id: "", certificateSubject: "", certificateSha256: "" };

type Detail = Pick<
  Event,
  "login" | "factor" | "otpSent" | "sessionRevoked" | "recovery" | "lockout" | "adminChange"
>;

/** The user's own events, beyond the spec (docs/api-contract.md, "The user's security events"). */
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
  const eventsOf = async (token: string, body?: unknown, tenant = company) => {
    const response = await list(token, body, tenant);
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
  /**
   * An event of the user's as its service makes it (docs/decisions.md, "Security events"), a
   * second after the one made before; the user's own, from their client, succeeded, unless told.
   */
  const anEvent = (
    type: string,
    source: string,
    user: TestUser,
    facts: Detail & {
      companyId?: string;
      sessionId?: string;
      outcome?: Outcome;
      clientAddress?: string;
      actor?: Actor;
    } = {},
  ): Event => {
    sequence += 1;
    const { companyId = company.id, sessionId = "", outcome, clientAddress, actor, ...detail } = facts;
    return {
      specversion: "1.0",
      id: randomUUID(),
      source: `auth-suite/${source}`,
      type,
      time: new Date(Date.UTC(2026, 10, 24, 7, 0, sequence)),
      subject: user.id,
      dataschema: "auth.events.v1",
      companyid: companyId,
      userid: user.id,
      sessionid: sessionId,
      traceid: "4bf92f3577b34da6a3ce929d0e0e4736",
      clientaddress: clientAddress ?? "198.51.100.23",
      outcome: outcome ?? Outcome.SUCCEEDED,
      actor: actor ?? userActor(user),
      ...detail,
    };
  };
  const loggedIn = (user: TestUser, methods: Factor[], sessionId = "") =>
    anEvent("auth.login.succeeded", "session", user, {
      sessionId,
      login: { methods, level: methods.length },
    });
  const factorDetail = (factor: Factor) => ({ factor, reason: "", passkeyId: "" });

  /** Stores the events as if the stream had carried them; every one must be stored. */
  const store = async (...events: Event[]) => {
    if (!audit) throw new Error("the audit service is not started");
    expect(await audit.storeEvents(events)).toMatchObject({ stored: events.length, skipped: 0 });
    return events.map((event) => event.id);
  };

  beforeAll(async () => {
    company = await createCompany();
  });

  it("lists the user's own events newest first, each with its type, time, outcome, address, factor, actor and whether it is this session's", async () => {
    const user = await createUser(company);
    const earlierSessionId = await sessionIdOf(await signIn(user));
    const token = await signIn(user);
    const sessionId = await sessionIdOf(token);
    const [earlierLogin, failed, operators, login] = await store(
      loggedIn(user, [Factor.PASSWORD], earlierSessionId),
      anEvent("auth.login.failed", "identity", user, {
        outcome: Outcome.FAILED,
        clientAddress: "203.0.113.9",
        factor: factorDetail(Factor.PASSWORD),
      }),
      anEvent("admin.factor.changed", "identity", user, {
        clientAddress: "",
        actor: operatorActor,
        adminChange: { resource: "factor", resourceId: user.id, action: "reset", fields: ["totp"] },
      }),
      loggedIn(user, [Factor.PASSWORD, Factor.APP_CODE], sessionId),
    );
    expect(await eventsOf(token)).toEqual([
      {
        id: login,
        type: "auth.login.succeeded",
        time: "2026-11-24T07:00:04.000Z",
        outcome: "succeeded",
        client_address: "198.51.100.23",
        factor: "app_code",
        actor: "user",
        current_session: true,
      },
      {
        id: operators,
        type: "admin.factor.changed",
        time: "2026-11-24T07:00:03.000Z",
        outcome: "succeeded",
        client_address: null,
        factor: null,
        actor: "operator",
        current_session: false,
      },
      {
        id: failed,
        type: "auth.login.failed",
        time: "2026-11-24T07:00:02.000Z",
        outcome: "failed",
        client_address: "203.0.113.9",
        factor: "password",
        actor: "user",
        current_session: false,
      },
      {
        id: earlierLogin,
        type: "auth.login.succeeded",
        time: "2026-11-24T07:00:01.000Z",
        outcome: "succeeded",
        client_address: "198.51.100.23",
        factor: "password",
        actor: "user",
        current_session: false,
      },
    ]);
  });

  it("lists the user's events only: not another user's of the company, nor another company's", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const [own] = await store(
      loggedIn(user, [Factor.PASSWORD]),
      loggedIn(await createUser(company), [Factor.PASSWORD]),
      anEvent("auth.password.changed", "identity", user, { companyId: (await createCompany()).id }),
    );
    expect((await eventsOf(token)).map((event) => event.id)).toEqual([own]);
  });

  it("does not list a type that is not the user's own kind (auth.otp.sent)", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const [login] = await store(
      loggedIn(user, [Factor.PASSWORD]),
      anEvent("auth.otp.sent", "otp", user, { otpSent: { channel: "sms", purpose: "login" } }),
    );
    expect((await eventsOf(token)).map((event) => event.id)).toEqual([login]);
  });

  it("names every factor, from whichever detail the event has, and every kind of actor of the contract", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const byFactor = {
      password: anEvent("auth.login.failed", "identity", user, { factor: factorDetail(Factor.PASSWORD) }),
      sms_code: anEvent("auth.account.locked", "session", user, {
        lockout: { factor: Factor.SMS_CODE, until: new Date(Date.UTC(2026, 10, 24, 8)) },
      }),
      app_code: loggedIn(user, [Factor.PASSWORD, Factor.APP_CODE]),
      backup_code: anEvent("auth.second_factor.failed", "identity", user, {
        outcome: Outcome.FAILED,
        factor: factorDetail(Factor.BACKUP_CODE),
      }),
      passkey: anEvent("auth.factor.enrolled", "identity", user, { factor: factorDetail(Factor.PASSKEY) }),
      oauth: loggedIn(user, [Factor.OAUTH]),
      recovery_question: anEvent("auth.recovery.finished", "session", user, {
        recovery: { method: "question" },
      }),
      email_link: anEvent("auth.recovery.started", "recovery", user, { recovery: { method: "email" } }),
    };
    const byActor = {
      user: anEvent("auth.password.changed", "identity", user),
      operator: anEvent("admin.session.revoked", "session", user, {
        clientAddress: "",
        actor: operatorActor,
        adminChange: { resource: "session", resourceId: user.id, action: "revoked", fields: [] },
      }),
      system: anEvent("auth.session.revoked", "session", user, {
        clientAddress: "",
        actor: systemActor,
        sessionRevoked: { reason: "credentials_changed", allOfUser: true },
      }),
    };
    await store(...Object.values(byFactor), ...Object.values(byActor));
    const listed = await eventsOf(token);
    expect(listed.slice(0, 3).map((event) => event.actor)).toEqual(Object.keys(byActor).reverse());
    expect(listed.slice(3).map((event) => event.factor)).toEqual(Object.keys(byFactor).reverse());
  });

  it("answers no token, token hash, login ID or operator's identity", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    await store(
      loggedIn(user, [Factor.PASSWORD], await sessionIdOf(token)),
      anEvent("admin.user.changed", "identity", user, {
        clientAddress: "",
        actor: operatorActor,
        adminChange: { resource: "user", resourceId: user.id, action: "updated", fields: ["blocked"] },
      }),
    );
    const text = JSON.stringify((await list(token)).body);
    expect(text).toContain("current_session");
    expect(text).toContain("operator");
    for (const secret of [
      token,
      createHash("sha256").update(token).digest("hex"),
      createHash("sha256").update(token).digest("base64url"),
      user.loginName,
      operatorActor.id,
      operatorActor.certificateSubject,
      operatorActor.certificateSha256,
    ])
      expect(text).not.toContain(secret);
  });

  it("gives the 20 newest unless asked, and as many as asked from 1 to 100", async () => {
    const user = await createUser(company);
    const token = await signIn(user);
    const ids = (
      await store(...Array.from({ length: 25 }, () => loggedIn(user, [Factor.PASSWORD])))
    ).reverse();
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
    const [changed] = await store(
      anEvent("auth.password.changed", "identity", user, { companyId: suspended.id }),
    );
    await updateCompany(suspended, { suspended: true });
    expect((await eventsOf(token, undefined, suspended)).map((event) => event.id)).toEqual([changed]);
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
