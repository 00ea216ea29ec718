import { randomBytes, randomUUID, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AuthError } from "@auth/errors";
import {
  createServiceClient,
  hashAdminToken,
  implement,
  type RunningGrpcServer,
  type ServiceClient,
  spiffeId,
  startGrpcServer,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import { AuditServiceService } from "@auth/proto/audit";
import { ActorKind, type Event, Factor, Outcome } from "@auth/proto/events";
import {
  type IntrospectTokenResponse,
  TokenIntrospectionServiceService,
  TokenStatus,
} from "@auth/proto/introspection";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditAccess } from "./access.js";
import { anEvent, userOrigin } from "./events.testing.js";
import { startAuditForTests } from "./testing.js";

// The webhooks' handlers are another part's (handlers/webhooks.ts); none of them is called here.

type Client = ServiceClient<typeof AuditServiceService>;
const holders = ["audit", "session", "gateway", "operator", "identity", "consumer/e2e"] as const;
type Holder = (typeof holders)[number];
const adminToken = randomBytes(32).toString("base64url");
const silent = createLogger("audit", "silent");

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

let dir: string;
let pki: Record<Holder, TlsFiles>;
/** What the session service answers for each token. */
const introspected = new Map<string, IntrospectTokenResponse>();
const introspectionCallers: string[] = [];
let session: RunningGrpcServer;
let server: Awaited<ReturnType<typeof startAuditForTests>>;
const clients = {} as Record<Holder, Client>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "audit-server-"));
  pki = (await ensureDevPki(join(dir, "pki"), [...holders])) as Record<Holder, TlsFiles>;
  // The session service's token introspection, at the gRPC boundary: its answers are the test's.
  session = await startGrpcServer({
    host: "127.0.0.1",
    port: 0,
    transport: mtlsTransport(pki.session),
    logger: silent,
    services: [
      {
        name: "auth.introspection.v1.TokenIntrospectionService",
        definition: TokenIntrospectionServiceService,
        implementation: implement(
          TokenIntrospectionServiceService,
          {
            async introspectToken(request, context) {
              introspectionCallers.push(context.caller ?? "");
              return introspected.get(request.sessionToken) ?? { status: TokenStatus.INVALID };
            },
          },
          { logger: silent, access: { introspectToken: ["audit"] } },
        ),
      },
    ],
  });
  server = await startAuditForTests({
    env: {
      ...tlsEnvironment(pki.audit),
      ADMIN_TOKEN_SHA256: hashAdminToken(adminToken),
      SESSION_ADDR: `127.0.0.1:${session.port}`,
      GRPC_DEADLINE_MS: "10000",
    },
    logger: silent,
  });
  for (const holder of holders) {
    clients[holder] = createServiceClient(AuditServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 10_000,
      transport: mtlsTransport(pki[holder]),
      server: "audit",
      ...(holder === "operator" ? { adminToken } : {}),
    });
  }
}, testBudgets.pgliteOpenMs);
afterAll(async () => {
  for (const client of Object.values(clients)) client?.close();
  await server?.stop(100);
  await session?.stop(100);
  rmSync(dir, { recursive: true, force: true });
});

let companyId: string;
let userId: string;
beforeEach(() => {
  companyId = randomUUID();
  userId = randomUUID();
});

describe("who may call what, over mutual TLS", () => {
  const others = ["gateway", "identity", "session", "consumer/e2e"] as const;
  const operatorCalls = {
    listEvents: (client: Client) => client.listEvents({ companyId, types: [], pageSize: 0, pageToken: "" }),
    getRetention: (client: Client) => client.getRetention({ companyId }),
    setRetention: (client: Client) => client.setRetention({ companyId, days: 30 }),
  };

  it.each(Object.keys(operatorCalls) as (keyof typeof operatorCalls)[])(
    "%s is the operators' only",
    async (method) => {
      expect(auditAccess[method]).toEqual(["operator"]);
      expect(await codeOf(operatorCalls[method](clients.operator))).toBe("ok");
      for (const holder of others)
        expect(await codeOf(operatorCalls[method](clients[holder])), holder).toBe("caller.forbidden");
    },
  );

  it("ListOwnEvents is the gateway's only: it serves the signed-in user's own view", async () => {
    expect(auditAccess.listOwnEvents).toEqual(["gateway"]);
    const call = (client: Client) => client.listOwnEvents({ sessionToken: "t", limit: 0 });
    expect(await codeOf(call(clients.gateway))).toBe("auth.token.invalid");
    for (const holder of ["operator", "identity", "session", "consumer/e2e"] as const)
      expect(await codeOf(call(clients[holder])), holder).toBe("caller.forbidden");
  });
});

describe("ListEvents", () => {
  it("lists the company's events as the stream carried them, newest first, 100 a page unless asked", async () => {
    const events = Array.from({ length: 101 }, (_, second) =>
      anEvent("auth.password.changed", {
        companyId,
        userId,
        time: new Date(Date.UTC(2030, 0, 1, 0, 0, second)),
      }),
    );
    await server.storeEvents(events);
    const first = await clients.operator.listEvents({ companyId, types: [], pageSize: 0, pageToken: "" });
    expect(first.events).toHaveLength(100);
    expect(first.events[0]).toEqual(events.at(-1));
    const second = await clients.operator.listEvents({
      companyId,
      types: [],
      pageSize: 0,
      pageToken: first.nextPageToken,
    });
    expect(second).toEqual({ events: [events[0]], nextPageToken: "" });
  });

  it("filters by user, types and time range", async () => {
    const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));
    const login = anEvent("auth.login.succeeded", { companyId, userId, time: at(1) });
    const others = anEvent("auth.login.succeeded", { companyId, userId: randomUUID(), time: at(2) });
    const password = anEvent("auth.password.changed", { companyId, userId, time: at(3) });
    await server.storeEvents([login, others, password]);
    const { events } = await clients.operator.listEvents({
      companyId,
      userId,
      types: ["auth.login.succeeded"],
      from: at(1),
      to: at(3),
      pageSize: 10,
      pageToken: "",
    });
    expect(events.map((event) => event.id)).toEqual([login.id]);
  });

  it.each([
    ["a company id that is no UUID", { companyId: "acme" }],
    ["a user id that is no UUID", { userId: "ann" }],
    ["a type not in the catalogue", { types: ["auth.login.success"] }],
    ["more than 1000 a page", { pageSize: 1_001 }],
    ["a page token it did not give", { pageToken: "bm90IGEgdG9rZW4" }],
  ])("refuses %s: request.validation.failed", async (_, change) => {
    const request = { companyId, types: [], pageSize: 0, pageToken: "", ...change };
    expect(await codeOf(clients.operator.listEvents(request))).toBe("request.validation.failed");
  });
});

describe("GetRetention and SetRetention", () => {
  it("keeps a company's events 90 days unless an operator sets 1 to 3650", async () => {
    expect(await clients.operator.getRetention({ companyId })).toEqual({ days: 90 });
    expect(await clients.operator.setRetention({ companyId, days: 3_650 })).toEqual({ days: 3_650 });
    expect(await clients.operator.getRetention({ companyId })).toEqual({ days: 3_650 });
    expect(await clients.operator.setRetention({ companyId, days: 1 })).toEqual({ days: 1 });
    expect(await clients.operator.getRetention({ companyId })).toEqual({ days: 1 });
  });

  it.each([0, 3_651])("refuses %i days: request.validation.failed", async (days) => {
    expect(await codeOf(clients.operator.setRetention({ companyId, days }))).toBe(
      "request.validation.failed",
    );
    expect(await clients.operator.getRetention({ companyId })).toEqual({ days: 90 });
  });

  it("records admin.retention.changed naming the operator by the certificate it presented", async () => {
    await clients.operator.setRetention({ companyId, days: 7 });
    const recorded = (await server.recordedEvents()).filter((event) => event.companyid === companyId);
    const certificate = new X509Certificate(readFileSync(pki.operator.certFile));
    expect(recorded).toEqual([
      expect.objectContaining({
        source: "auth-suite/audit",
        type: "admin.retention.changed",
        outcome: Outcome.SUCCEEDED,
        actor: {
          kind: ActorKind.OPERATOR,
          id: spiffeId("operator"),
          certificateSubject: "CN=operator",
          certificateSha256: certificate.fingerprint256.replaceAll(":", "").toLowerCase(),
        },
        adminChange: { resource: "retention", resourceId: companyId, action: "updated", fields: ["days"] },
      }),
    ]);
  });
});

describe("ListOwnEvents", () => {
  const sessionId = randomUUID();
  let token: string;
  const activeFor = (company: string, user: string): IntrospectTokenResponse => ({
    status: TokenStatus.ACTIVE,
    session: {
      sessionId,
      companyId: company,
      userId: user,
      profileMnemocode: "",
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  beforeEach(() => {
    token = randomBytes(32).toString("base64url");
    introspected.set(token, activeFor(companyId, userId));
  });
  const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));

  it("asks the session service whose the token is, with the audit service's certificate", async () => {
    const before = introspectionCallers.length;
    await clients.gateway.listOwnEvents({ sessionToken: token, limit: 0 });
    expect(introspectionCallers.slice(before)).toEqual(["audit"]);
  });

  it("lists the token's user's own events as the user may see them, never naming an operator", async () => {
    const operator = {
      ...userOrigin(""),
      clientAddress: "",
      actor: {
        kind: ActorKind.OPERATOR,
        id: spiffeId("operator"),
        certificateSubject: "CN=ops",
        certificateSha256: "ab",
      },
    };
    const login = anEvent("auth.login.succeeded", {
      companyId,
      userId,
      sessionId,
      time: at(1),
      origin: userOrigin(userId),
    });
    const otherLogin = anEvent("auth.login.succeeded", {
      companyId,
      userId,
      sessionId: randomUUID(),
      time: at(2),
      origin: userOrigin(userId),
    });
    const locked = anEvent("auth.account.locked", { companyId, userId, time: at(3) });
    const blocked = anEvent("admin.user.changed", { companyId, userId, time: at(4), origin: operator });
    const notOwn = anEvent("auth.otp.sent", { companyId, userId, time: at(5) });
    const anotherUsers = anEvent("auth.login.succeeded", { companyId, userId: randomUUID(), time: at(6) });
    await server.storeEvents([login, otherLogin, locked, blocked, notOwn, anotherUsers]);

    const { events } = await clients.gateway.listOwnEvents({ sessionToken: token, limit: 0 });
    expect(events).toEqual([
      {
        id: blocked.id,
        type: "admin.user.changed",
        time: at(4),
        outcome: Outcome.SUCCEEDED,
        clientAddress: "",
        factor: Factor.UNSPECIFIED,
        actor: ActorKind.OPERATOR,
        currentSession: false,
      },
      {
        id: locked.id,
        type: "auth.account.locked",
        time: at(3),
        outcome: Outcome.SUCCEEDED,
        clientAddress: "",
        factor: Factor.SMS_CODE,
        actor: ActorKind.SYSTEM,
        currentSession: false,
      },
      expect.objectContaining({ id: otherLogin.id, factor: Factor.APP_CODE, currentSession: false }),
      {
        id: login.id,
        type: "auth.login.succeeded",
        time: at(1),
        outcome: Outcome.SUCCEEDED,
        clientAddress: "203.0.113.9",
        factor: Factor.APP_CODE,
        actor: ActorKind.USER,
        currentSession: true,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain("operator");
  });

  it("lists a changed phone or e-mail by the factor it carries (sms_code, email_link), never the address", async () => {
    const changed = (kind: string, minute: number) =>
      anEvent("auth.contact.changed", {
        companyId,
        userId,
        time: at(minute),
        origin: userOrigin(userId),
        detail: { contactChanged: { kind } },
      });
    const [phone, email] = [changed("phone", 40), changed("email", 41)];
    await server.storeEvents([phone, email]);
    const { events } = await clients.gateway.listOwnEvents({ sessionToken: token, limit: 2 });
    expect(events.map((event) => [event.id, event.type, event.factor, event.actor])).toEqual([
      [email.id, "auth.contact.changed", Factor.EMAIL_LINK, ActorKind.USER],
      [phone.id, "auth.contact.changed", Factor.SMS_CODE, ActorKind.USER],
    ]);
  });

  it("lists 20 unless asked, at most 100", async () => {
    const events: Event[] = Array.from({ length: 25 }, (_, minute) =>
      anEvent("auth.password.changed", { companyId, userId, time: at(minute) }),
    );
    await server.storeEvents(events);
    expect((await clients.gateway.listOwnEvents({ sessionToken: token, limit: 0 })).events).toHaveLength(20);
    expect((await clients.gateway.listOwnEvents({ sessionToken: token, limit: 3 })).events).toHaveLength(3);
    expect(await codeOf(clients.gateway.listOwnEvents({ sessionToken: token, limit: 101 }))).toBe(
      "request.validation.failed",
    );
  });

  it.each([
    [TokenStatus.INVALID, "auth.token.invalid"],
    [TokenStatus.EXPIRED, "auth.token.expired"],
    [TokenStatus.NOT_AUTHORIZED, "auth.session.invalid"],
  ])("answers a token the session service calls %s with %s", async (status, code) => {
    await server.storeEvents([anEvent("auth.password.changed", { companyId, userId })]);
    introspected.set(token, { status });
    expect(await codeOf(clients.gateway.listOwnEvents({ sessionToken: token, limit: 0 }))).toBe(code);
  });
});
