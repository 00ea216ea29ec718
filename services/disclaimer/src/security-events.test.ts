import { randomBytes, randomUUID, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type EventOrigin, systemOrigin } from "@auth/events";
import {
  createServiceClient,
  forRequest,
  hashAdminToken,
  requestMetadata,
  type ServiceClient,
  spiffeId,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, type TlsFiles, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { ActorKind, type Event, Outcome } from "@auth/proto/events";
import { createLogger } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { acceptances, type DisclaimerSchema, schema } from "./schema.js";
import { DisclaimerStore } from "./store/disclaimer-store.js";
import { recordedEvents, startDisclaimerForTests } from "./testing.js";

const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));
const terms = { code: "terms", title: "Terms", description: "The terms", link: "https://example.com/terms" };
const privacy = { code: "privacy", title: "Privacy", description: "", link: "https://example.com/privacy" };
const request = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", clientAddress: "203.0.113.9" };

const ofCompany = (events: Event[], companyId: string) =>
  events.filter((event) => event.companyid === companyId);

describe("Security events", () => {
  describe("through the service: who asked, and from where", () => {
    const adminToken = randomBytes(32).toString("base64url");
    let dir: string;
    let files: Record<string, TlsFiles>;
    let server: Awaited<ReturnType<typeof startDisclaimerForTests>>;
    let operator: ServiceClient<typeof DisclaimerServiceService>;
    let gateway: ServiceClient<typeof DisclaimerServiceService>;
    let companyId: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "disclaimer-events-"));
      files = await ensureDevPki(join(dir, "pki"), ["disclaimer", "gateway", "operator"]);
      server = await startDisclaimerForTests({
        env: {
          ...tlsEnvironment(files.disclaimer as TlsFiles),
          ADMIN_TOKEN_SHA256: hashAdminToken(adminToken),
        },
        logger: createLogger("disclaimer", "silent"),
      });
      const clientOf = (holder: "gateway" | "operator") =>
        createServiceClient(DisclaimerServiceService, `127.0.0.1:${server.port}`, {
          deadlineMs: 10_000,
          transport: mtlsTransport(files[holder] as TlsFiles),
          server: "disclaimer",
          ...(holder === "operator" ? { adminToken } : {}),
        });
      operator = clientOf("operator");
      gateway = clientOf("gateway");
    }, testBudgets.pgliteOpenMs);
    afterAll(async () => {
      operator?.close();
      gateway?.close();
      await server?.stop(100);
      rmSync(dir, { recursive: true, force: true });
    });
    beforeEach(() => {
      companyId = randomUUID();
    });

    it("names the operator of a write by the certificate it presented, and no request of an end user", async () => {
      await operator.createDisclaimer({ companyId, ...terms });
      const [event, ...more] = ofCompany(await server.recordedEvents(), companyId);
      expect(more).toEqual([]);
      const certificate = new X509Certificate(readFileSync((files.operator as TlsFiles).certFile));
      expect(event).toMatchObject({
        specversion: "1.0",
        source: "auth-suite/disclaimer",
        type: "admin.disclaimer.changed",
        subject: "disclaimer/terms",
        dataschema: "auth.events.v1",
        userid: "",
        sessionid: "",
        traceid: "",
        clientaddress: "",
        outcome: Outcome.SUCCEEDED,
        actor: {
          kind: ActorKind.OPERATOR,
          id: spiffeId("operator"),
          certificateSubject: "CN=operator",
          certificateSha256: certificate.fingerprint256.replaceAll(":", "").toLowerCase(),
        },
        adminChange: { resource: "disclaimer", resourceId: "terms", action: "created" },
      });
    });

    it("names the user of an acceptance, with the trace id and client address the gateway sent", async () => {
      const userId = randomUUID();
      await operator.createDisclaimer({ companyId, ...terms });
      await forRequest(gateway, { metadata: requestMetadata(request) }).acceptDisclaimers({
        companyId,
        userId,
        codes: ["terms"],
        clientAddress: request.clientAddress,
      });
      const accepted = ofCompany(await server.recordedEvents(), companyId).filter(
        (event) => event.type === "auth.disclaimer.accepted",
      );
      expect(accepted).toEqual([
        expect.objectContaining({
          source: "auth-suite/disclaimer",
          subject: userId,
          userid: userId,
          traceid: request.traceId,
          clientaddress: request.clientAddress,
          outcome: Outcome.SUCCEEDED,
          actor: { kind: ActorKind.USER, id: userId, certificateSubject: "", certificateSha256: "" },
          disclaimer: { codes: ["terms"] },
        }),
      ]);
    });
  });

  describe.each(databaseKinds())("in the store's transactions on $name", (kind) => {
    const operator: EventOrigin = {
      ...systemOrigin,
      actor: {
        kind: ActorKind.OPERATOR,
        id: spiffeId("operator"),
        certificateSubject: "",
        certificateSha256: "",
      },
    };
    let database: OpenedDatabase<DisclaimerSchema>;
    let store: DisclaimerStore;
    let companyId: string;
    let userId: string;
    let user: EventOrigin;
    const eventsOfCompany = async () => ofCompany(await recordedEvents(database.db), companyId);

    beforeAll(async () => {
      database = await kind.open({ schema, migrationsFolder });
      store = new DisclaimerStore(database.db);
    }, testBudgets.pgliteOpenMs);
    afterAll(async () => {
      await database?.close();
    });
    beforeEach(() => {
      companyId = randomUUID();
      userId = randomUUID();
      user = { ...request, actor: { ...operator.actor, kind: ActorKind.USER, id: userId } };
    });

    it("records one admin.disclaimer.changed per create, version and deactivation, naming the fields changed", async () => {
      await store.create({ companyId, ...terms }, operator);
      await store.publishVersion({ companyId, ...terms, title: "Terms 2" }, operator);
      await store.deactivate(companyId, "terms", operator);
      // Already inactive: nothing changes.
      await store.deactivate(companyId, "terms", operator);
      const events = await eventsOfCompany();
      expect(events.map((event) => [event.type, event.adminChange])).toEqual([
        [
          "admin.disclaimer.changed",
          {
            resource: "disclaimer",
            resourceId: "terms",
            action: "created",
            fields: ["title", "description", "link"],
          },
        ],
        [
          "admin.disclaimer.changed",
          {
            resource: "disclaimer",
            resourceId: "terms",
            action: "version_published",
            fields: ["version", "title"],
          },
        ],
        [
          "admin.disclaimer.changed",
          { resource: "disclaimer", resourceId: "terms", action: "deactivated", fields: ["active"] },
        ],
      ]);
      expect(new Set(events.map((event) => event.id)).size).toBe(3);
    });

    it("records nothing for a write refused (a code taken, a disclaimer unknown)", async () => {
      await store.create({ companyId, ...terms }, operator);
      await expect(store.create({ companyId, ...terms }, operator)).rejects.toThrow();
      await expect(store.publishVersion({ companyId, ...privacy }, operator)).rejects.toThrow();
      await expect(store.deactivate(companyId, "privacy", operator)).rejects.toThrow();
      expect(await eventsOfCompany()).toHaveLength(1);
    });

    it("records one auth.disclaimer.accepted with the codes stored, at the time stored", async () => {
      await store.create({ companyId, ...terms }, operator);
      await store.create({ companyId, ...privacy }, operator);
      const { acceptedAt } = await store.accept(
        { companyId, userId, codes: ["terms", "privacy"], clientAddress: request.clientAddress },
        user,
      );
      const accepted = (await eventsOfCompany()).filter((event) => event.type === "auth.disclaimer.accepted");
      expect(accepted).toHaveLength(1);
      expect(accepted[0]?.disclaimer?.codes.sort()).toEqual(["privacy", "terms"]);
      expect(accepted[0]?.time).toEqual(acceptedAt);
      expect(accepted[0]).toMatchObject({ userid: userId, traceid: request.traceId, actor: user.actor });
    });

    it("records none for an acceptance refused for a missing code", async () => {
      await store.create({ companyId, ...terms }, operator);
      await store.create({ companyId, ...privacy }, operator);
      const { missing } = await store.accept(
        { companyId, userId, codes: ["terms"], clientAddress: request.clientAddress },
        user,
      );
      expect(missing).toHaveLength(1);
      expect((await eventsOfCompany()).map((event) => event.type)).not.toContain("auth.disclaimer.accepted");
    });

    it("records an acceptance sent twice at once once: the second stores nothing", async () => {
      await store.create({ companyId, ...terms }, operator);
      const acceptance = { companyId, userId, codes: ["terms"], clientAddress: request.clientAddress };
      await Promise.all([store.accept(acceptance, user), store.accept(acceptance, user)]);
      await store.accept(acceptance, user);
      const accepted = (await eventsOfCompany()).filter((event) => event.type === "auth.disclaimer.accepted");
      expect(accepted).toHaveLength(1);
    });

    it("records none when the change is rolled back, and keeps no change without its event", async () => {
      await store.create({ companyId, ...terms }, operator);
      // The outbox refuses this company's next event: the transaction fails after the acceptance is written.
      await database.db.execute(
        sql.raw(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'refused'; END $$`),
      );
      await database.db.execute(
        sql.raw(`CREATE TRIGGER refuse_event BEFORE INSERT ON event_outbox FOR EACH ROW
          WHEN (NEW.payload LIKE '%${companyId}%') EXECUTE FUNCTION refuse_event()`),
      );
      try {
        await expect(
          store.accept({ companyId, userId, codes: ["terms"], clientAddress: request.clientAddress }, user),
        ).rejects.toThrow();
        await expect(store.deactivate(companyId, "terms", operator)).rejects.toThrow();
      } finally {
        await database.db.execute(sql.raw("DROP TRIGGER refuse_event ON event_outbox"));
        await database.db.execute(sql.raw("DROP FUNCTION refuse_event()"));
      }
      expect((await eventsOfCompany()).map((event) => event.adminChange?.action)).toEqual(["created"]);
      const stored = await database.db.select().from(acceptances);
      expect(stored.filter((row) => row.userId === userId)).toEqual([]);
      expect((await store.list(companyId))[0]?.active).toBe(true);
    });
  });
});
