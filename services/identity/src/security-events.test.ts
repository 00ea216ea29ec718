import { randomBytes, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AuthError } from "@auth/errors";
import { eventFromJson } from "@auth/events";
import { eventOutbox } from "@auth/events/pg";
import {
  clientAddressKey,
  createServiceClient,
  hashAdminToken,
  type RunningGrpcServer,
  type ServiceClient,
  spiffeId,
  traceIdKey,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import { ActorKind, type Event, Factor, Outcome } from "@auth/proto/events";
import {
  ContactKind,
  IdentityServiceService,
  type ImportedUser,
  ImportOutcome,
  type PasskeySettings,
  UserStatus,
} from "@auth/proto/identity";
import { SmsProvider } from "@auth/proto/otp";
import {
  CheckOutcome,
  type ReserveSecretCheckRequest,
  type ReserveSecretCheckResponse,
  SessionState,
} from "@auth/proto/session";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { SoftAuthenticator } from "@auth/testing/soft-authenticator";
import { Metadata } from "@grpc/grpc-js";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { asc, sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type IdentitySchema, schema } from "./schema.js";
import {
  claimedCredentialChange,
  FakePasskeySessions,
  noCredentialChange,
  providerSettings,
  randomPhone,
  seedCompany,
  seedUser,
  startIdentityForTests,
  type TestUser,
} from "./testing.js";

type Client = ServiceClient<typeof IdentityServiceService>;
const adminToken = randomBytes(32).toString("base64url");
const holders = ["identity", "gateway", "operator", "otp", "recovery"] as const;
type Holder = (typeof holders)[number];

const origin = "https://login.example.test";
const relyingParty: PasskeySettings = { rpId: "example.test", origins: [origin], allowPasswordless: true };
const traceId = "0af7651916cd43dd8448eb211c80319c";
const clientAddress = "192.0.2.30";

/** The session service's budget of guesses as identity sees it: allowed, unless `refuse` says otherwise. */
const budget = {
  refuse: undefined as CheckOutcome | undefined,
  async reserveSecretCheck(_: ReserveSecretCheckRequest): Promise<ReserveSecretCheckResponse> {
    return {
      outcome: budget.refuse ?? CheckOutcome.ALLOWED,
      checkId: budget.refuse ? "" : `check-${randomBytes(4).toString("hex")}`,
      retryAfterSeconds: budget.refuse ? 60 : 0,
      captchaRequired: false,
      credentialGeneration: "1",
    };
  },
  reportSecretCheck: async () => ({ sessionEnded: false, lockedOutUserId: "" }),
};
/** Sessions claimed for a password change of their user (GetCredentialChange). */
const claimed = new Map<string, { companyId: string; userId: string }>();
const sessions = new FakePasskeySessions();
const dataDir = mkdtempSync(join(tmpdir(), "identity-events-"));
let database: OpenedDatabase<IdentitySchema>;
let server: RunningGrpcServer;
const clients = {} as Record<Holder, Client>;
let operatorCertificate: { subject: string; sha256: string };

beforeAll(async () => {
  const pki = (await ensureDevPki(join(dataDir, "pki"), [...holders])) as Record<Holder, TlsFiles>;
  database = await openDatabase({
    schema,
    migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  });
  server = await startIdentityForTests({
    env: { ...tlsEnvironment(pki.identity), ADMIN_TOKEN_SHA256: hashAdminToken(adminToken) },
    database,
    session: {
      ...budget,
      revokeUserSessions: async () => ({ revoked: 1 }),
      recordFederatedLogin: async () => ({ checkId: "federated-check" }),
      getCredentialChange: async ({ sessionToken }) => {
        const change = claimed.get(sessionToken);
        return change ? claimedCredentialChange(sessionToken, change) : noCredentialChange;
      },
      ...sessions.calls,
    },
    logger: createLogger("identity", "silent"),
  });
  for (const holder of holders) {
    clients[holder] = createServiceClient(IdentityServiceService, `127.0.0.1:${server.port}`, {
      deadlineMs: 10_000,
      adminToken: holder === "operator" ? adminToken : undefined,
      transport: mtlsTransport(pki[holder]),
      server: "identity",
    });
  }
  const certificate = new X509Certificate(readFileSync(pki.operator.certFile));
  operatorCertificate = {
    subject: certificate.subject,
    sha256: certificate.fingerprint256.replaceAll(":", "").toLowerCase(),
  };
}, testBudgets.pgliteOpenMs);

afterAll(async () => {
  for (const client of Object.values(clients)) client.close();
  await server.stop(100);
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  budget.refuse = undefined;
});

/** What the gateway sends with each call for an end user's request. */
function fromGateway() {
  const metadata = new Metadata();
  metadata.set(traceIdKey, traceId);
  metadata.set(clientAddressKey, clientAddress);
  return { metadata };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

const outboxSize = async () => (await database.db.select().from(eventOutbox)).length;

/** The company's events in the outbox, in commit order, and their payloads as stored. */
async function outboxOf(companyId: string) {
  const rows = await database.db.select().from(eventOutbox).orderBy(asc(eventOutbox.position));
  const payloads = rows
    .map((row) => row.payload)
    .filter((payload) => eventFromJson(payload).companyid === companyId);
  return { payloads, events: payloads.map(eventFromJson) };
}

/**
 * The events a step records in the company's outbox, and their payloads; the payloads must hold
 * none of the `secrets` (passwords, codes, login IDs the step used).
 */
async function recordedBy(companyId: string, step: () => Promise<unknown>, secrets: string[] = []) {
  const before = (await outboxOf(companyId)).events.length;
  await step();
  const { payloads, events } = await outboxOf(companyId);
  for (const payload of payloads.slice(before))
    for (const secret of secrets) expect(payload.toLowerCase()).not.toContain(secret.toLowerCase());
  return events.slice(before);
}

const operatorActor = () => ({
  kind: ActorKind.OPERATOR,
  id: spiffeId("operator"),
  certificateSubject: operatorCertificate.subject,
  certificateSha256: operatorCertificate.sha256,
});
const userActor = (userId: string) => ({ kind: ActorKind.USER, id: userId });
/** An end user's request, as the gateway tells of it. */
const throughGateway = { traceid: traceId, clientaddress: clientAddress };

/** One event of the type, of identity, and what it says. */
function expectOne(events: Event[], expected: Record<string, unknown> & { type: string }) {
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    specversion: "1.0",
    source: "auth-suite/identity",
    dataschema: "auth.events.v1",
    ...expected,
  });
}

const companyWith = (passkeys: PasskeySettings | undefined = undefined) =>
  seedCompany(clients.operator, { passkeys });
type Company = Awaited<ReturnType<typeof companyWith>>;

/**
 * A pending change of the user's address, begun from an authorized session as the gateway begins
 * it: the ApplyContactChange its code or link leads to (the address as identity keeps it).
 */
async function beginChange(companyId: string, userId: string, kind: ContactKind, address: string) {
  const sessionToken = sessions.open(companyId, userId, SessionState.AUTHORIZED);
  const begun = await clients.gateway.beginContactChange({ companyId, sessionToken, kind, address });
  return { companyId, userId, kind, address: begun.address };
}

/** A code of the secret for a step after every one used so far (the next step's: ±1 allows it). */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

describe("Security events", () => {
  describe("an operator's write of a company records admin.company.changed or admin.policy.changed", () => {
    it("names the operator by its certificate, the company as the subject, and the fields set", async () => {
      const code = `t${randomBytes(5).toString("hex")}`;
      const before = await outboxSize();
      const { company } = await clients.operator.createCompany({ code, name: "Events" });
      const companyId = company?.id ?? "";
      expect(await outboxSize()).toBe(before + 1);
      expectOne((await outboxOf(companyId)).events, {
        type: "admin.company.changed",
        subject: `company/${companyId}`,
        companyid: companyId,
        userid: "",
        outcome: Outcome.SUCCEEDED,
        actor: operatorActor(),
        traceid: "",
        clientaddress: "",
        adminChange: {
          resource: "company",
          resourceId: companyId,
          action: "created",
          fields: ["code", "name", "policy"],
        },
      });
    });

    it("names the changed fields of the company and, apart, of its policy; an update that changes nothing records nothing", async () => {
      const company = await companyWith();
      const renamed = await recordedBy(company.id, () =>
        clients.operator.updateCompany({ companyId: company.id, name: "Renamed", suspended: true }),
      );
      expectOne(renamed, {
        type: "admin.company.changed",
        subject: `company/${company.id}`,
        adminChange: {
          resource: "company",
          resourceId: company.id,
          action: "updated",
          fields: ["name", "suspended"],
        },
      });
      const policy = { ...company.policy, captchaAfterFailures: 7 };
      const changed = await recordedBy(company.id, () =>
        clients.operator.updateCompany({ companyId: company.id, policy }),
      );
      expectOne(changed, {
        type: "admin.policy.changed",
        subject: `policy/${company.id}`,
        actor: operatorActor(),
        adminChange: {
          resource: "policy",
          resourceId: company.id,
          action: "updated",
          fields: ["captchaAfterFailures"],
        },
      });
      expect(
        await recordedBy(company.id, () =>
          clients.operator.updateCompany({ companyId: company.id, name: "Renamed", policy }),
        ),
      ).toEqual([]);
    });

    it("keeps a policy's secret unnamed when it is written back as it was, and names it, never its value, when it changes", async () => {
      const company = await companyWith();
      const sms = {
        provider: SmsProvider.HTTP,
        url: "https://sms.example.test/send",
        token: "sms-token-one",
        account: "",
        sender: "",
        region: "",
      };
      const set = await recordedBy(
        company.id,
        () => clients.operator.updateCompany({ companyId: company.id, policy: { ...company.policy, sms } }),
        ["sms-token-one"],
      );
      expect(set.map((event) => event.adminChange?.fields)).toEqual([["sms"]]);
      // As answers show it: without the token, which is kept.
      const kept = { ...company.policy, sms: { ...sms, token: "" } };
      expect(
        await recordedBy(company.id, () =>
          clients.operator.updateCompany({ companyId: company.id, policy: kept }),
        ),
      ).toEqual([]);
      const changed = await recordedBy(
        company.id,
        () =>
          clients.operator.updateCompany({
            companyId: company.id,
            policy: { ...company.policy, sms: { ...sms, token: "sms-token-two" } },
          }),
        ["sms-token-two"],
      );
      expect(changed.map((event) => event.adminChange?.fields)).toEqual([["sms"]]);
    });

    it("records nothing for an unknown company", async () => {
      const before = await outboxSize();
      expect(
        await codeOf(
          clients.operator.updateCompany({
            companyId: "00000000-0000-4000-8000-000000000000",
            name: "Nobody",
          }),
        ),
      ).toBe("resource.notfound");
      expect(await outboxSize()).toBe(before);
    });
  });

  describe("an operator's write of an API key records admin.api_key.changed, never the key", () => {
    it("for its creation, revocation and rotation; nothing for a key revoked already or unknown", async () => {
      const company = await companyWith();
      let key = { keyId: "", apiKey: "" };
      const created = await recordedBy(company.id, async () => {
        key = await clients.operator.createApiKey({ companyId: company.id, label: "billing" });
      });
      expectOne(created, {
        type: "admin.api_key.changed",
        subject: `api_key/${key.keyId}`,
        actor: operatorActor(),
        adminChange: { resource: "api_key", resourceId: key.keyId, action: "created", fields: ["label"] },
      });
      let rotated = { keyId: "", apiKey: "" };
      const rotation = await recordedBy(company.id, async () => {
        rotated = await clients.operator.rotateApiKey({
          companyId: company.id,
          keyId: key.keyId,
          overlapSeconds: 60,
        });
      }, [key.apiKey]);
      expect(rotation.map((event) => [event.subject, event.adminChange])).toEqual([
        [
          `api_key/${rotated.keyId}`,
          { resource: "api_key", resourceId: rotated.keyId, action: "created", fields: ["label"] },
        ],
        [
          `api_key/${key.keyId}`,
          { resource: "api_key", resourceId: key.keyId, action: "rotated", fields: ["expiresAt"] },
        ],
      ]);
      const revoke = () => clients.operator.revokeApiKey({ companyId: company.id, keyId: rotated.keyId });
      expectOne(await recordedBy(company.id, revoke, [rotated.apiKey]), {
        type: "admin.api_key.changed",
        adminChange: {
          resource: "api_key",
          resourceId: rotated.keyId,
          action: "revoked",
          fields: ["revokedAt"],
        },
      });
      expect(await recordedBy(company.id, revoke)).toEqual([]);
      const unknown = () =>
        codeOf(
          clients.operator.revokeApiKey({
            companyId: company.id,
            keyId: "00000000-0000-4000-8000-000000000000",
          }),
        );
      expect(await recordedBy(company.id, unknown)).toEqual([]);
    });
  });

  describe("an operator's write of a user records admin.user.changed about the user", () => {
    it("names the fields set or changed, never their values; nothing for an update that changes nothing", async () => {
      const company = await companyWith();
      let user: TestUser | undefined;
      const created = await recordedBy(company.id, async () => {
        user = await seedUser(clients.operator, company.id);
      });
      if (!user) throw new Error("no user");
      const secrets = [user.loginName, user.email, user.phone, user.password ?? ""];
      for (const payload of (await outboxOf(company.id)).payloads)
        for (const secret of secrets) expect(payload.toLowerCase()).not.toContain(secret.toLowerCase());
      expectOne(created, {
        type: "admin.user.changed",
        subject: user.id,
        userid: user.id,
        actor: operatorActor(),
        adminChange: {
          resource: "user",
          resourceId: user.id,
          action: "created",
          fields: ["role", "status", "profileMnemocode", "loginName", "phone", "email", "password"],
        },
      });
      const update = () =>
        clients.operator.updateUser({
          companyId: company.id,
          userId: user?.id ?? "",
          status: UserStatus.RESTRICTED,
          password: "a new password for the events test",
        });
      expectOne(await recordedBy(company.id, update, ["a new password for the events test"]), {
        type: "admin.user.changed",
        adminChange: {
          resource: "user",
          resourceId: user.id,
          action: "updated",
          fields: ["status", "password"],
        },
      });
      const same = () =>
        clients.operator.updateUser({
          companyId: company.id,
          userId: user?.id ?? "",
          status: UserStatus.RESTRICTED,
        });
      expect(await recordedBy(company.id, same)).toEqual([]);
    });

    it("records nothing for a write refused by the database (a login ID taken): the transaction rolled back", async () => {
      const company = await companyWith();
      const [one, other] = [
        await seedUser(clients.operator, company.id),
        await seedUser(clients.operator, company.id),
      ];
      const taken = () =>
        codeOf(clients.operator.updateUser({ companyId: company.id, userId: other.id, email: one.email }));
      expect(await recordedBy(company.id, async () => expect(await taken()).toBe("resource.exists"))).toEqual(
        [],
      );
    });
  });

  describe("a change whose event cannot be recorded is not made (one transaction)", () => {
    it("leaves the user and the outbox as they were", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const constraint = `refuse_${randomBytes(4).toString("hex")}`;
      // The outbox refuses this user's new events only (NOT VALID: its rows so far stay): the other tests go on.
      await database.db.execute(
        sql.raw(
          `ALTER TABLE event_outbox ADD CONSTRAINT ${constraint} CHECK (position('${user.id}' in payload) = 0) NOT VALID`,
        ),
      );
      try {
        const sessionToken = `claimed-${randomBytes(8).toString("hex")}`;
        claimed.set(sessionToken, { companyId: company.id, userId: user.id });
        const writes = await recordedBy(company.id, async () => {
          expect(
            await codeOf(
              clients.operator.updateUser({
                companyId: company.id,
                userId: user.id,
                status: UserStatus.CLOSED,
              }),
            ),
          ).not.toBe("ok");
          expect(
            await codeOf(
              clients.gateway.setPassword({
                companyId: company.id,
                userId: user.id,
                newPassword: "another long passphrase here",
                sessionToken,
                validateOnly: false,
              }),
            ),
          ).not.toBe("ok");
        });
        expect(writes).toEqual([]);
      } finally {
        await database.db.execute(sql.raw(`ALTER TABLE event_outbox DROP CONSTRAINT ${constraint}`));
      }
      const { user: after } = await clients.operator.getUser({ companyId: company.id, userId: user.id });
      expect(after?.status).toBe(UserStatus.ACTIVE);
      expect(
        await clients.gateway.verifyCredentials({
          companyId: company.id,
          loginId: user.loginName,
          password: user.password ?? "",
          clientAddress,
        }),
      ).toMatchObject({ user: { id: user.id } });
    });
  });

  describe("a change of the user's address whose event cannot be recorded is not made (one transaction)", () => {
    it("leaves the address and its pending change as they were: applied once the event can be recorded", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const change = await beginChange(company.id, user.id, ContactKind.EMAIL, `new-${user.email}`);
      const constraint = `refuse_${randomBytes(4).toString("hex")}`;
      await database.db.execute(
        sql.raw(
          `ALTER TABLE event_outbox ADD CONSTRAINT ${constraint} CHECK (position('${user.id}' in payload) = 0) NOT VALID`,
        ),
      );
      try {
        const refused = await recordedBy(company.id, async () => {
          expect(await codeOf(clients.recovery.applyContactChange(change))).not.toBe("ok");
        });
        expect(refused).toEqual([]);
      } finally {
        await database.db.execute(sql.raw(`ALTER TABLE event_outbox DROP CONSTRAINT ${constraint}`));
      }
      const { user: after } = await clients.operator.getUser({ companyId: company.id, userId: user.id });
      expect(after?.email).toBe(user.email);
      const applied = await recordedBy(company.id, async () => {
        expect(await clients.recovery.applyContactChange(change)).toEqual({ applied: true });
      });
      expect(applied.map((event) => event.type)).toEqual(["auth.contact.changed"]);
    });
  });

  describe("a password check records auth.login.failed when the password is compared and wrong", () => {
    let company: Company;
    let user: TestUser;
    beforeAll(async () => {
      company = await companyWith();
      user = await seedUser(clients.operator, company.id);
    });
    const login = (loginId: string, password: string) =>
      clients.gateway.verifyCredentials(
        { companyId: company.id, loginId, password, clientAddress },
        fromGateway(),
      );

    it("of the user the login ID names, by the user, with the request's trace id and client address", async () => {
      const events = await recordedBy(company.id, () => login(user.loginName, "a wrong password"), [
        user.loginName,
        "a wrong password",
      ]);
      expectOne(events, {
        type: "auth.login.failed",
        subject: user.id,
        userid: user.id,
        companyid: company.id,
        outcome: Outcome.FAILED,
        actor: userActor(user.id),
        ...throughGateway,
        factor: { factor: Factor.PASSWORD, reason: "wrong", passkeyId: "" },
      });
    });

    it("of the company when the login ID names no user, without the login ID", async () => {
      const events = await recordedBy(company.id, () => login("nobody-here", "a wrong password"), [
        "nobody-here",
      ]);
      expectOne(events, {
        type: "auth.login.failed",
        subject: `company/${company.id}`,
        userid: "",
        actor: { kind: ActorKind.SYSTEM, id: "" },
        factor: { factor: Factor.PASSWORD, reason: "wrong" },
      });
    });

    it("nothing when the budget refuses it (a burst writes nothing per guess), for a right password or a captcha asked for", async () => {
      budget.refuse = CheckOutcome.LOCKED_OUT;
      expect(await recordedBy(company.id, () => login(user.loginName, "a wrong password"))).toEqual([]);
      budget.refuse = CheckOutcome.SESSION_SPENT;
      expect(await recordedBy(company.id, () => login(user.loginName, "a wrong password"))).toEqual([]);
      budget.refuse = CheckOutcome.CAPTCHA_MISSING;
      expect(await recordedBy(company.id, () => login(user.loginName, "a wrong password"))).toEqual([]);
      budget.refuse = undefined;
      expect(await recordedBy(company.id, () => login(user.loginName, user.password ?? ""))).toEqual([]);
    });

    it("for VerifyPassword too (the session's user)", async () => {
      const verify = () =>
        clients.gateway.verifyPassword(
          { companyId: company.id, userId: user.id, password: "a wrong password", clientAddress },
          fromGateway(),
        );
      expectOne(await recordedBy(company.id, verify, ["a wrong password"]), {
        type: "auth.login.failed",
        subject: user.id,
        actor: userActor(user.id),
        factor: { factor: Factor.PASSWORD, reason: "wrong" },
      });
    });
  });

  describe("SetPassword records auth.password.changed by the user", () => {
    it("once the password is written, and nothing for a refused or validate-only one", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const sessionToken = `claimed-${randomBytes(8).toString("hex")}`;
      claimed.set(sessionToken, { companyId: company.id, userId: user.id });
      const set = (newPassword: string, validateOnly = false) =>
        clients.gateway.setPassword(
          { companyId: company.id, userId: user.id, newPassword, sessionToken, validateOnly },
          fromGateway(),
        );
      expect(await recordedBy(company.id, () => set("a perfectly fine passphrase", true))).toEqual([]);
      expect(await recordedBy(company.id, () => set("short"))).toEqual([]);
      const events = await recordedBy(company.id, () => set("a perfectly fine passphrase"), [
        "a perfectly fine passphrase",
        user.password ?? "",
      ]);
      expectOne(events, {
        type: "auth.password.changed",
        subject: user.id,
        userid: user.id,
        outcome: Outcome.SUCCEEDED,
        actor: userActor(user.id),
        ...throughGateway,
      });
      expect(events[0]?.factor).toBeUndefined();
    });
  });

  describe("ApplyContactChange records auth.contact.changed by the user, with the kind, never the address", () => {
    it("for a phone confirmed by its code (otp) and an e-mail by its link (recovery); nothing before, nor for nothing pending", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const phone = randomPhone();
      const email = `changed-${user.email}`;
      const addresses = [phone, phone.slice(1), email, user.phone, user.phone.slice(1), user.email];
      const before = await outboxSize();
      const phoneChange = await beginChange(company.id, user.id, ContactKind.PHONE, phone);
      const emailChange = await beginChange(company.id, user.id, ContactKind.EMAIL, email);
      expect(await outboxSize()).toBe(before);
      const byCode = await recordedBy(
        company.id,
        async () => expect(await clients.otp.applyContactChange(phoneChange)).toEqual({ applied: true }),
        addresses,
      );
      expectOne(byCode, {
        type: "auth.contact.changed",
        subject: user.id,
        userid: user.id,
        companyid: company.id,
        outcome: Outcome.SUCCEEDED,
        actor: userActor(user.id),
        contactChanged: { kind: "phone" },
      });
      const byLink = await recordedBy(
        company.id,
        async () => expect(await clients.recovery.applyContactChange(emailChange)).toEqual({ applied: true }),
        addresses,
      );
      expectOne(byLink, {
        type: "auth.contact.changed",
        subject: user.id,
        actor: userActor(user.id),
        contactChanged: { kind: "email" },
      });
      const again = await recordedBy(company.id, async () =>
        expect(await clients.recovery.applyContactChange(emailChange)).toEqual({ applied: false }),
      );
      expect(again).toEqual([]);
    });

    it("nothing when the address became another user's meanwhile (auth.contact.unavailable)", async () => {
      const company = await companyWith();
      const [user, other] = [
        await seedUser(clients.operator, company.id),
        await seedUser(clients.operator, company.id),
      ];
      const email = `taken-${user.email}`;
      const change = await beginChange(company.id, user.id, ContactKind.EMAIL, email);
      await clients.operator.updateUser({ companyId: company.id, userId: other.id, email });
      const refused = await recordedBy(company.id, async () =>
        expect(await codeOf(clients.recovery.applyContactChange(change))).toBe("auth.contact.unavailable"),
      );
      expect(refused).toEqual([]);
    });
  });

  describe("ImportUsers records admin.user.changed for each user it creates, as CreateUser does", () => {
    const imported = (externalId: string, overrides: Partial<ImportedUser> = {}): ImportedUser => ({
      externalId,
      role: "customer",
      profileMnemocode: `P-${externalId}`,
      loginName: `imported-${externalId}`,
      email: `imported-${externalId}@example.com`,
      status: UserStatus.ACTIVE,
      secondFactorRequired: false,
      passwordChangeRequired: false,
      password: "an imported password",
      ...overrides,
    });

    it("one per created user, by the operator, naming the fields set, never their values; none for a failed user nor on a re-run", async () => {
      const company = await companyWith();
      const tag = randomBytes(4).toString("hex");
      const batch = [
        imported(`${tag}-1`),
        imported(`${tag}-2`, { password: undefined, passwordHash: "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=" }),
        imported(`${tag}-3`),
      ];
      const secrets = batch.flatMap((user) => [
        user.loginName ?? "",
        user.email ?? "",
        "an imported password",
      ]);
      let results: { outcome: ImportOutcome; userId: string }[] = [];
      const created = await recordedBy(
        company.id,
        async () => {
          results = (await clients.operator.importUsers({ companyId: company.id, users: batch })).results;
        },
        secrets,
      );
      expect(results.map((result) => result.outcome)).toEqual([
        ImportOutcome.CREATED,
        ImportOutcome.FAILED,
        ImportOutcome.CREATED,
      ]);
      const createdIds = [results[0]?.userId, results[2]?.userId];
      expect(created).toHaveLength(2);
      expect(created.map((event) => [event.type, event.subject, event.userid, event.adminChange])).toEqual(
        createdIds.map((userId) => [
          "admin.user.changed",
          userId,
          userId,
          {
            resource: "user",
            resourceId: userId,
            action: "created",
            fields: ["role", "status", "profileMnemocode", "loginName", "email", "password"],
          },
        ]),
      );
      for (const event of created) expect(event.actor).toEqual(operatorActor());
      const rerun = await recordedBy(company.id, async () => {
        const again = await clients.operator.importUsers({ companyId: company.id, users: batch });
        expect(again.results.map((result) => result.outcome)).toEqual([
          ImportOutcome.SKIPPED,
          ImportOutcome.FAILED,
          ImportOutcome.SKIPPED,
        ]);
      });
      expect(rerun).toEqual([]);
    });
  });

  describe("backup codes", () => {
    it("a new set records auth.factor.enrolled by the user, or admin.factor.changed by an operator", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const ids = { companyId: company.id, userId: user.id };
      let codes: string[] = [];
      const own = await recordedBy(company.id, async () => {
        codes = (await clients.gateway.generateBackupCodes(ids, fromGateway())).backupCodes;
      });
      expectOne(own, {
        type: "auth.factor.enrolled",
        subject: user.id,
        actor: userActor(user.id),
        factor: { factor: Factor.BACKUP_CODE, reason: "", passkeyId: "" },
      });
      const reset = await recordedBy(company.id, () => clients.operator.generateBackupCodes(ids), codes);
      expectOne(reset, {
        type: "admin.factor.changed",
        subject: user.id,
        actor: operatorActor(),
        adminChange: { resource: "factor", resourceId: user.id, action: "reset", fields: ["backupCodes"] },
      });
    });

    it("a code used records auth.second_factor.passed, a wrong one auth.second_factor.failed, never the code", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const ids = { companyId: company.id, userId: user.id };
      const [code = ""] = (await clients.operator.generateBackupCodes(ids)).backupCodes;
      const use = (backupCode: string) =>
        clients.gateway.useBackupCode({ ...ids, backupCode }, fromGateway());
      expectOne(await recordedBy(company.id, () => use(code), [code, code.replaceAll("-", "")]), {
        type: "auth.second_factor.passed",
        subject: user.id,
        outcome: Outcome.SUCCEEDED,
        actor: userActor(user.id),
        ...throughGateway,
        factor: { factor: Factor.BACKUP_CODE, reason: "" },
      });
      expectOne(await recordedBy(company.id, () => use(code), [code]), {
        type: "auth.second_factor.failed",
        outcome: Outcome.FAILED,
        factor: { factor: Factor.BACKUP_CODE, reason: "wrong" },
      });
    });
  });

  describe("the authenticator app", () => {
    it("records auth.factor.enrolled when confirmed (with the first backup codes), checks as second factors, and admin.factor.changed when an operator removes it", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const ids = { companyId: company.id, userId: user.id };
      let secret = "";
      expect(
        await recordedBy(company.id, async () => {
          secret = (await clients.gateway.beginTotpEnrolment(ids, fromGateway())).secret;
        }),
      ).toEqual([]);
      const code = await generate({ secret });
      const enrolled = await recordedBy(
        company.id,
        () => clients.gateway.confirmTotpEnrolment({ ...ids, code, clientAddress }, fromGateway()),
        [secret, code],
      );
      expect(enrolled.map((event) => [event.type, event.factor?.factor, event.actor?.kind])).toEqual([
        ["auth.factor.enrolled", Factor.APP_CODE, ActorKind.USER],
        ["auth.factor.enrolled", Factor.BACKUP_CODE, ActorKind.USER],
      ]);
      const verify = (totp: string) =>
        clients.gateway.verifyTotp({ ...ids, code: totp, clientAddress }, fromGateway());
      const right = await nextCode(secret);
      const wrong = (Number(right) ^ 1).toString().padStart(6, "0");
      expectOne(await recordedBy(company.id, () => verify(wrong), [wrong]), {
        type: "auth.second_factor.failed",
        subject: user.id,
        factor: { factor: Factor.APP_CODE, reason: "wrong" },
      });
      expectOne(await recordedBy(company.id, () => verify(right), [right]), {
        type: "auth.second_factor.passed",
        subject: user.id,
        actor: userActor(user.id),
        ...throughGateway,
        factor: { factor: Factor.APP_CODE },
      });
      budget.refuse = CheckOutcome.LOCKED_OUT;
      expect(await recordedBy(company.id, () => verify(right))).toEqual([]);
      budget.refuse = undefined;
      const remove = () => clients.operator.removeTotp(ids);
      expectOne(await recordedBy(company.id, remove), {
        type: "admin.factor.changed",
        subject: user.id,
        actor: operatorActor(),
        adminChange: {
          resource: "factor",
          resourceId: user.id,
          action: "removed",
          fields: ["authenticatorApp"],
        },
      });
      expect(await recordedBy(company.id, remove)).toEqual([]);
    });
  });

  describe("passkeys", () => {
    let company: Company;
    let user: TestUser;
    const authenticator = new SoftAuthenticator({ origin });
    let passkeyId = "";
    beforeAll(async () => {
      company = await companyWith(relyingParty);
      user = await seedUser(clients.operator, company.id);
    });

    async function login(state: SessionState) {
      const sessionToken = sessions.open(company.id, user.id, state);
      const { optionsJson } = await clients.gateway.beginPasskeyLogin({
        companyId: company.id,
        sessionToken,
      });
      return {
        sessionToken,
        options: JSON.parse(optionsJson ?? "") as PublicKeyCredentialRequestOptionsJSON,
      };
    }
    const verify = (sessionToken: string, assertion: unknown) =>
      clients.gateway.verifyPasskey(
        { companyId: company.id, sessionToken, responseJson: JSON.stringify(assertion), clientAddress },
        fromGateway(),
      );

    it("one registered records auth.factor.enrolled with its id (and the first backup codes)", async () => {
      const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
      const events = await recordedBy(company.id, async () => {
        const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
          companyId: company.id,
          sessionToken,
        });
        const options = JSON.parse(optionsJson) as PublicKeyCredentialCreationOptionsJSON;
        const finished = await clients.gateway.finishPasskeyRegistration(
          {
            companyId: company.id,
            sessionToken,
            responseJson: JSON.stringify(authenticator.register(options)),
          },
          fromGateway(),
        );
        passkeyId = finished.passkey?.id ?? "";
      });
      expect(events.map((event) => [event.type, event.factor, event.subject])).toEqual([
        ["auth.factor.enrolled", { factor: Factor.PASSKEY, reason: "", passkeyId }, user.id],
        ["auth.factor.enrolled", { factor: Factor.BACKUP_CODE, reason: "", passkeyId: "" }, user.id],
      ]);
      expect(events[0]).toMatchObject({ actor: userActor(user.id), ...throughGateway });
    });

    it("an assertion as a second factor records auth.second_factor.passed, or .failed when it does not verify", async () => {
      const { sessionToken, options } = await login(SessionState.CHECKOTP);
      expectOne(await recordedBy(company.id, () => verify(sessionToken, authenticator.assert(options))), {
        type: "auth.second_factor.passed",
        subject: user.id,
        actor: userActor(user.id),
        ...throughGateway,
        factor: { factor: Factor.PASSKEY, reason: "", passkeyId },
      });
      const again = await login(SessionState.CHECKOTP);
      const forged = authenticator.assert(again.options, { origin: "https://elsewhere.example.test" });
      expectOne(await recordedBy(company.id, () => verify(again.sessionToken, forged)), {
        type: "auth.second_factor.failed",
        outcome: Outcome.FAILED,
        factor: { factor: Factor.PASSKEY, reason: "wrong", passkeyId },
      });
    });

    it("an assertion in place of the password records nothing when right (the login is the session's), auth.login.failed when not", async () => {
      const right = await login(SessionState.CHECKPASSWORD);
      expect(
        await recordedBy(company.id, () => verify(right.sessionToken, authenticator.assert(right.options))),
      ).toEqual([]);
      const wrong = await login(SessionState.CHECKPASSWORD);
      const unverified = authenticator.assert(wrong.options, { userVerified: false });
      expectOne(await recordedBy(company.id, () => verify(wrong.sessionToken, unverified)), {
        type: "auth.login.failed",
        subject: user.id,
        factor: { factor: Factor.PASSKEY, reason: "wrong", passkeyId },
      });
    });

    it("renaming records nothing of the user's, admin.factor.changed of an operator's; removing records auth.factor.removed or admin.factor.changed", async () => {
      const ids = { companyId: company.id, userId: user.id, passkeyId };
      expect(
        await recordedBy(company.id, () =>
          clients.gateway.renamePasskey({ ...ids, name: "Phone" }, fromGateway()),
        ),
      ).toEqual([]);
      expectOne(
        await recordedBy(company.id, () => clients.operator.renamePasskey({ ...ids, name: "Lost phone" })),
        {
          type: "admin.factor.changed",
          subject: user.id,
          actor: operatorActor(),
          adminChange: { resource: "factor", resourceId: passkeyId, action: "renamed", fields: ["passkeys"] },
        },
      );
      expectOne(await recordedBy(company.id, () => clients.gateway.removePasskey(ids, fromGateway())), {
        type: "auth.factor.removed",
        subject: user.id,
        actor: userActor(user.id),
        factor: { factor: Factor.PASSKEY, passkeyId },
      });
      expect(await recordedBy(company.id, () => clients.operator.removePasskey(ids))).toEqual([]);
      const sessionToken = sessions.open(company.id, user.id, SessionState.AUTHORIZED);
      const { optionsJson } = await clients.gateway.beginPasskeyRegistration({
        companyId: company.id,
        sessionToken,
      });
      const { passkey } = await clients.gateway.finishPasskeyRegistration({
        companyId: company.id,
        sessionToken,
        responseJson: JSON.stringify(authenticator.register(JSON.parse(optionsJson))),
      });
      const second = { ...ids, passkeyId: passkey?.id ?? "" };
      expectOne(await recordedBy(company.id, () => clients.operator.removePasskey(second)), {
        type: "admin.factor.changed",
        adminChange: {
          resource: "factor",
          resourceId: second.passkeyId,
          action: "removed",
          fields: ["passkeys"],
        },
      });
    });
  });

  describe("OAuth providers and links", () => {
    it("a slot's settings record admin.policy.changed naming the changed settings, never the secret; a link of a user admin.factor.changed, never the provider's subject", async () => {
      const company = await companyWith();
      const user = await seedUser(clients.operator, company.id);
      const settings = providerSettings({
        slot: 2,
        issuer: "https://idp.example.test",
        clientId: "client-one",
        clientSecret: "provider-secret",
        redirectUris: ["https://app.example.test/callback"],
      });
      const save = (changes = {}) =>
        clients.operator.setOAuthProvider({ companyId: company.id, settings: { ...settings, ...changes } });
      const subject = `${company.id}/2`;
      expectOne(await recordedBy(company.id, () => save(), ["provider-secret"]), {
        type: "admin.policy.changed",
        subject: `oauth_provider/${subject}`,
        actor: operatorActor(),
        adminChange: {
          resource: "oauth_provider",
          resourceId: subject,
          action: "created",
          fields: [
            "kind",
            "name",
            "issuer",
            "clientId",
            "clientSecret",
            "redirectUris",
            "scopes",
            "subjectClaim",
          ],
        },
      });
      expect(await recordedBy(company.id, () => save())).toEqual([]);
      expectOne(await recordedBy(company.id, () => save({ clientId: "client-two" })), {
        type: "admin.policy.changed",
        adminChange: {
          resource: "oauth_provider",
          resourceId: subject,
          action: "updated",
          fields: ["clientId"],
        },
      });
      const link = { companyId: company.id, slot: 2, subject: "ann@idp.example.test" };
      expectOne(
        await recordedBy(company.id, () => clients.operator.linkOAuthIdentity({ ...link, userId: user.id }), [
          link.subject,
        ]),
        {
          type: "admin.factor.changed",
          subject: user.id,
          userid: user.id,
          adminChange: { resource: "factor", resourceId: user.id, action: "added", fields: ["oauthLinks"] },
        },
      );
      expectOne(
        await recordedBy(company.id, () => clients.operator.unlinkOAuthIdentity(link), [link.subject]),
        {
          type: "admin.factor.changed",
          subject: user.id,
          adminChange: { resource: "factor", resourceId: user.id, action: "removed", fields: ["oauthLinks"] },
        },
      );
      expect(await recordedBy(company.id, () => codeOf(clients.operator.unlinkOAuthIdentity(link)))).toEqual(
        [],
      );
      const remove = () => clients.operator.deleteOAuthProvider({ companyId: company.id, slot: 2 });
      expectOne(await recordedBy(company.id, remove), {
        type: "admin.policy.changed",
        adminChange: { resource: "oauth_provider", resourceId: subject, action: "deleted", fields: [] },
      });
      expect(await recordedBy(company.id, () => codeOf(remove()))).toEqual([]);
    });
  });
});
