import { randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { AuthError } from "@auth/errors";
import { eventFromJson } from "@auth/events";
import type { CallContext } from "@auth/grpc-kit";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import { DeliveryState } from "@auth/proto/audit";
import { ActorKind } from "@auth/proto/events";
import { SecretBox } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AuditSchema, eventOutbox, schema, webhookDeliveries } from "../schema.js";
import { DeliveryStore } from "../webhooks/delivery-store.js";
import { storeEventFor } from "../webhooks/stored-events.testing.js";
import { WebhookStore } from "../webhooks/webhook-store.js";
import { webhookHandlers } from "./webhooks.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
/** An operator's call as grpc-kit hands it to a handler: the certificate names the operator. */
const operatorCall: CallContext = {
  metadata: { get: () => [] } as unknown as CallContext["metadata"],
  peer: "ipv4:127.0.0.1:50000",
  caller: "operator",
  plaintext: false,
  certificate: { subject: "CN=ops on call", sha256: "cd".repeat(32) },
  deadline: Number.POSITIVE_INFINITY,
};
const hook = { url: "https://hooks.example.com/in", eventTypes: ["auth.login.failed"], description: "SIEM" };

describe("the webhooks' methods", () => {
  let database: OpenedDatabase<AuditSchema>;
  let handlers: ReturnType<typeof webhookHandlers>;
  let companyId: string;

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ code: "ok", detail: "" }),
      (error: AuthError) => ({ code: error.code, detail: error.message }),
    );
  const create = (fields: Partial<typeof hook> = {}) =>
    handlers.createWebhook({ companyId, ...hook, ...fields }, operatorCall);

  beforeAll(async () => {
    database = await openDatabase({ schema, migrationsFolder });
    const options = { secretBox: new SecretBox(randomBytes(32)), retryForMs: 3_600_000 };
    handlers = webhookHandlers({
      webhookStore: new WebhookStore(database.db, options),
      deliveryStore: new DeliveryStore(database.db, options),
      webhookAllowedCidrs: ["10.1.0.0/16"],
    });
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    companyId = randomUUID();
  });

  describe("CreateWebhook", () => {
    it("creates an enabled webhook and returns its secret, which ListWebhooks never shows", async () => {
      const { webhook, secret } = await create();
      expect(webhook).toMatchObject({ companyId, ...hook, enabled: true, disabledReason: "" });
      expect(secret).toMatch(/^whsec_/);
      const { webhooks } = await handlers.listWebhooks({ companyId }, operatorCall);
      expect(webhooks).toEqual([webhook]);
      expect(JSON.stringify(webhooks)).not.toContain(secret);
    });

    it("records admin.webhook.changed naming the operator by the certificate presented", async () => {
      const { webhook } = await create();
      const rows = await database.db.select().from(eventOutbox);
      const events = rows.map((row) => eventFromJson(row.payload)).filter((e) => e.companyid === companyId);
      expect(events).toMatchObject([
        {
          type: "admin.webhook.changed",
          actor: {
            kind: ActorKind.OPERATOR,
            id: "spiffe://auth-suite/operator",
            certificateSubject: "CN=ops on call",
            certificateSha256: "cd".repeat(32),
          },
          adminChange: { resource: "webhook", resourceId: webhook?.id, action: "created" },
        },
      ]);
    });

    it("refuses a URL that is not https, or carries a user name or password", async () => {
      for (const url of ["http://hooks.example.com/", "https://me:pw@hooks.example.com/", "not a url"]) {
        expect(await failure(create({ url }))).toMatchObject({
          code: "request.validation.failed",
          detail: expect.stringMatching(/^url: /),
        });
      }
    });

    it("refuses an IP literal that is not public, unless WEBHOOK_ALLOWED_CIDRS allows it", async () => {
      for (const url of [
        "https://127.0.0.1/",
        "https://[::1]/",
        "https://169.254.169.254/",
        "https://10.2.0.1/",
      ]) {
        expect(await failure(create({ url }))).toMatchObject({
          code: "request.validation.failed",
          detail: expect.stringMatching(/^url: names an address that is not public/),
        });
      }
      expect((await failure(create({ url: "https://10.1.2.3/" }))).code).toBe("ok");
    });

    it("takes the catalogue's event types only, at least one and at most 100, each once", async () => {
      expect(await failure(create({ eventTypes: ["auth.login.failed", "auth.nothing"] }))).toMatchObject({
        code: "request.validation.failed",
        detail: expect.stringMatching(/^eventTypes\.1: must be an event type of the catalogue/),
      });
      expect((await failure(create({ eventTypes: [] }))).code).toBe("request.validation.failed");
      const many = Array.from({ length: 101 }, () => "auth.login.failed");
      expect((await failure(create({ eventTypes: many }))).code).toBe("request.validation.failed");
      const { webhook } = await create({ eventTypes: many.slice(2).concat("auth.login.succeeded") });
      expect(webhook?.eventTypes).toEqual(["auth.login.failed", "auth.login.succeeded"]);
    });

    it("refuses a description over 500 characters or with control characters, and a company id that is no UUID", async () => {
      expect((await failure(create({ description: "x".repeat(501) }))).code).toBe(
        "request.validation.failed",
      );
      expect((await failure(create({ description: "a\nb" }))).code).toBe("request.validation.failed");
      expect((await failure(create({ description: "x".repeat(500) }))).code).toBe("ok");
      expect((await failure(handlers.createWebhook({ ...hook, companyId: "acme" }, operatorCall))).code).toBe(
        "request.validation.failed",
      );
    });
  });

  describe("UpdateWebhook", () => {
    it("changes the fields given and leaves the others; an empty list of event types sets none", async () => {
      const { webhook } = await create();
      const id = webhook?.id ?? "";
      const { webhook: updated } = await handlers.updateWebhook(
        { companyId, webhookId: id, description: "Renamed", eventTypes: { types: [] } },
        operatorCall,
      );
      expect(updated).toMatchObject({ url: hook.url, description: "Renamed", eventTypes: [], enabled: true });
      const { webhook: disabled } = await handlers.updateWebhook(
        { companyId, webhookId: id, enabled: false },
        operatorCall,
      );
      expect(disabled).toMatchObject({ description: "Renamed", enabled: false, disabledReason: "operator" });
    });

    it("checks a new URL as CreateWebhook does", async () => {
      const { webhook } = await create();
      const result = await failure(
        handlers.updateWebhook(
          { companyId, webhookId: webhook?.id ?? "", url: "https://192.168.1.1/" },
          operatorCall,
        ),
      );
      expect(result.code).toBe("request.validation.failed");
    });

    it("does not find another company's webhook, nor an unknown one", async () => {
      const { webhook } = await create();
      for (const [company, webhookId] of [
        [randomUUID(), webhook?.id ?? ""],
        [companyId, randomUUID()],
      ] as const) {
        expect(
          (
            await failure(
              handlers.updateWebhook({ companyId: company, webhookId, enabled: false }, operatorCall),
            )
          ).code,
        ).toBe("resource.notfound");
      }
    });
  });

  describe("DeleteWebhook", () => {
    it("deletes the company's webhook; another company's is not found", async () => {
      const { webhook } = await create();
      const webhookId = webhook?.id ?? "";
      expect(
        (await failure(handlers.deleteWebhook({ companyId: randomUUID(), webhookId }, operatorCall))).code,
      ).toBe("resource.notfound");
      expect(await handlers.deleteWebhook({ companyId, webhookId }, operatorCall)).toEqual({});
      expect((await handlers.listWebhooks({ companyId }, operatorCall)).webhooks).toEqual([]);
    });
  });

  describe("RotateWebhookSecret", () => {
    it("returns a new secret, the old one signing beside it for a day unless told", async () => {
      const { webhook, secret } = await create();
      const before = Date.now();
      const rotated = await handlers.rotateWebhookSecret(
        { companyId, webhookId: webhook?.id ?? "", overlapSeconds: 0 },
        operatorCall,
      );
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(secret);
      const until = rotated.webhook?.previousSecretExpiresAt?.getTime() ?? 0;
      expect(until).toBeGreaterThanOrEqual(before + 86_400_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 86_400_000);
    });

    it("takes an overlap of at most 7 days", async () => {
      const { webhook } = await create();
      const rotate = (overlapSeconds: number) =>
        failure(
          handlers.rotateWebhookSecret(
            { companyId, webhookId: webhook?.id ?? "", overlapSeconds },
            operatorCall,
          ),
        );
      expect((await rotate(604_801)).code).toBe("request.validation.failed");
      expect((await rotate(604_800)).code).toBe("ok");
    });
  });

  describe("ListDeliveries", () => {
    it("lists the webhook's deliveries, 100 a page unless asked, at most 1000", async () => {
      const { webhook } = await create();
      const webhookId = webhook?.id ?? "";
      const first = await storeEventFor(database.db, { id: webhookId, companyId });
      await storeEventFor(database.db, { id: webhookId, companyId });
      const list = (pageSize: number, state = DeliveryState.UNSPECIFIED) =>
        handlers.listDeliveries({ companyId, webhookId, state, pageSize, pageToken: "" }, operatorCall);
      expect(await list(0)).toMatchObject({ deliveries: [{}, {}], nextPageToken: "" });
      expect((await list(1)).deliveries).toHaveLength(1);
      expect((await list(1)).nextPageToken).not.toBe("");
      await expect(failure(list(1_001))).resolves.toMatchObject({ code: "request.validation.failed" });
      await database.db
        .update(webhookDeliveries)
        .set({ state: "dead" })
        .where(eq(webhookDeliveries.id, first.deliveryId));
      expect((await list(0, DeliveryState.DEAD)).deliveries.map((d) => d.id)).toEqual([first.deliveryId]);
    });

    it("does not find another company's webhook", async () => {
      const { webhook } = await create();
      const result = await failure(
        handlers.listDeliveries(
          {
            companyId: randomUUID(),
            webhookId: webhook?.id ?? "",
            state: DeliveryState.UNSPECIFIED,
            pageSize: 0,
            pageToken: "",
          },
          operatorCall,
        ),
      );
      expect(result.code).toBe("resource.notfound");
    });
  });

  describe("ReplayDeliveries", () => {
    it("queues the webhook's dead deliveries again and says how many", async () => {
      const { webhook } = await create();
      const webhookId = webhook?.id ?? "";
      const dead = await storeEventFor(database.db, { id: webhookId, companyId });
      await database.db
        .update(webhookDeliveries)
        .set({ state: "dead" })
        .where(eq(webhookDeliveries.id, dead.deliveryId));
      expect(
        await handlers.replayDeliveries({ companyId, webhookId, deliveryIds: [] }, operatorCall),
      ).toEqual({
        queued: 1,
      });
      expect(
        await handlers.replayDeliveries(
          { companyId, webhookId, deliveryIds: [dead.deliveryId, dead.deliveryId] },
          operatorCall,
        ),
      ).toEqual({ queued: 0 });
    });

    it("refuses delivery ids that are no UUIDs, and another company's webhook", async () => {
      const { webhook } = await create();
      const webhookId = webhook?.id ?? "";
      expect(
        (await failure(handlers.replayDeliveries({ companyId, webhookId, deliveryIds: ["1"] }, operatorCall)))
          .code,
      ).toBe("request.validation.failed");
      expect(
        (
          await failure(
            handlers.replayDeliveries({ companyId: randomUUID(), webhookId, deliveryIds: [] }, operatorCall),
          )
        ).code,
      ).toBe("resource.notfound");
    });
  });
});
