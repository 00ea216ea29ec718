import { randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { AuthError } from "@auth/errors";
import { type EventOrigin, eventFromJson } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { ActorKind, type Event } from "@auth/proto/events";
import { SecretBox } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AuditSchema, eventOutbox, schema, webhookDeliveries, webhooks } from "../schema.js";
import { storeEventFor } from "./stored-events.testing.js";
import { WebhookStore } from "./webhook-store.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const hour = 3_600_000;
const operator: EventOrigin = {
  actor: {
    kind: ActorKind.OPERATOR,
    id: "spiffe://auth-suite/operator",
    certificateSubject: "CN=ops",
    certificateSha256: "ab".repeat(32),
  },
  traceId: "",
  clientAddress: "",
};
const hook = { url: "https://hooks.example.com/in", eventTypes: ["auth.login.failed"], description: "SIEM" };

describe.each(databaseKinds())("webhook store on $name", (kind) => {
  let database: OpenedDatabase<AuditSchema>;
  let store: WebhookStore;
  let box: SecretBox;
  let clock: Date;
  let companyId: string;

  /** The webhook events recorded for the company, in commit order. */
  const eventsOf = async (company: string): Promise<Event[]> =>
    (await database.db.select().from(eventOutbox).orderBy(eventOutbox.position))
      .map((row) => eventFromJson(row.payload))
      .filter((event) => event.companyid === company);
  const rowOf = async (id: string) => {
    const [row] = await database.db.select().from(webhooks).where(eq(webhooks.id, id));
    if (!row) throw new Error("no such row");
    return row;
  };
  const notFound = (promise: Promise<unknown>) => promise.catch((error: AuthError) => error.code);

  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder });
    box = new SecretBox(randomBytes(32));
    store = new WebhookStore(database.db, { secretBox: box, retryForMs: 26 * hour, now: () => clock });
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    clock = new Date("2030-01-01T00:00:00Z");
    companyId = randomUUID();
  });

  describe("create", () => {
    it("returns the webhook, enabled, and its first secret: whsec_ and 24 random bytes in base64", async () => {
      const { webhook, secret } = await store.create({ companyId, ...hook }, operator);
      expect(webhook).toEqual({
        id: expect.any(String),
        companyId,
        ...hook,
        enabled: true,
        disabledReason: "",
        createdAt: clock,
        previousSecretExpiresAt: undefined,
      });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(24);
      expect((await store.create({ companyId, ...hook }, operator)).secret).not.toBe(secret);
    });

    it("keeps the secret only sealed with SECRETS_KEY", async () => {
      const { webhook, secret } = await store.create({ companyId, ...hook }, operator);
      const row = await rowOf(webhook.id);
      expect(JSON.stringify(row)).not.toContain(secret.slice("whsec_".length));
      expect(box.open(row.secretSealed)).toBe(secret);
      expect(() => new SecretBox(randomBytes(32)).open(row.secretSealed)).toThrow();
    });

    it("records admin.webhook.changed: the operator, the webhook and the fields set, never the secret", async () => {
      const { webhook, secret } = await store.create({ companyId, ...hook }, operator);
      const [event, ...more] = await eventsOf(companyId);
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        type: "admin.webhook.changed",
        source: "auth-suite/audit",
        companyid: companyId,
        subject: `webhook/${webhook.id}`,
        actor: operator.actor,
        adminChange: {
          resource: "webhook",
          resourceId: webhook.id,
          action: "created",
          fields: ["url", "eventTypes", "description"],
        },
      });
      const [row] = await database.db
        .select()
        .from(eventOutbox)
        .where(eq(eventOutbox.id, event?.id ?? ""));
      expect(row?.payload).not.toContain(secret.slice("whsec_".length));
      expect(row?.payload).not.toContain(hook.url);
    });
  });

  describe("list", () => {
    it("lists the company's webhooks only, oldest first, without secrets", async () => {
      const first = await store.create({ companyId, ...hook }, operator);
      clock = new Date(clock.getTime() + 1_000);
      const second = await store.create({ companyId, ...hook, description: "" }, operator);
      await store.create({ companyId: randomUUID(), ...hook }, operator);
      const listed = await store.list(companyId);
      expect(listed.map((webhook) => webhook.id)).toEqual([first.webhook.id, second.webhook.id]);
      expect(JSON.stringify(listed)).not.toMatch(/whsec_|secret_sealed|secretSealed/);
    });
  });

  describe("update", () => {
    it("changes only the fields given, and names in its event those whose value changed", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      const updated = await store.update(
        companyId,
        webhook.id,
        { url: "https://hooks.example.com/v2", eventTypes: hook.eventTypes, description: undefined },
        operator,
      );
      expect(updated).toEqual({ ...webhook, url: "https://hooks.example.com/v2" });
      const events = await eventsOf(companyId);
      expect(events.at(-1)?.adminChange).toEqual({
        resource: "webhook",
        resourceId: webhook.id,
        action: "updated",
        fields: ["url"],
      });
    });

    it("records nothing when nothing changed", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      await store.update(companyId, webhook.id, { ...hook, enabled: true }, operator);
      expect(await eventsOf(companyId)).toHaveLength(1);
    });

    it("disables a webhook for the operator's reason, and enabling clears it", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      expect(await store.update(companyId, webhook.id, { enabled: false }, operator)).toMatchObject({
        enabled: false,
        disabledReason: "operator",
      });
      expect(await store.update(companyId, webhook.id, { enabled: true }, operator)).toMatchObject({
        enabled: true,
        disabledReason: "",
      });
      expect((await eventsOf(companyId)).map((event) => event.adminChange?.fields)).toEqual([
        ["url", "eventTypes", "description"],
        ["enabled"],
        ["enabled"],
      ]);
    });

    it("enabling a disabled webhook makes its waiting deliveries due now, with a new retry period", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      await database.db
        .update(webhooks)
        .set({ enabled: false, disabledReason: "gone" })
        .where(eq(webhooks.id, webhook.id));
      const later = new Date(clock.getTime() + 10 * hour);
      const waiting = await storeEventFor(database.db, webhook, { nextAttemptAt: later, retryUntil: later });
      const dead = await storeEventFor(database.db, webhook, { nextAttemptAt: later, retryUntil: later });
      await database.db
        .update(webhookDeliveries)
        .set({ state: "dead", nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, dead.deliveryId));
      clock = new Date(clock.getTime() + hour);
      await store.update(companyId, webhook.id, { enabled: true }, operator);
      const rows = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, webhook.id));
      expect(rows.find((row) => row.id === waiting.deliveryId)).toMatchObject({
        state: "pending",
        nextAttemptAt: clock,
        retryUntil: new Date(clock.getTime() + 26 * hour),
      });
      expect(rows.find((row) => row.id === dead.deliveryId)).toMatchObject({
        state: "dead",
        retryUntil: later,
      });
    });

    it("does not find another company's webhook, and leaves it as it was", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      const other = randomUUID();
      expect(await notFound(store.update(other, webhook.id, { enabled: false }, operator))).toBe(
        "resource.notfound",
      );
      expect(await notFound(store.update(companyId, randomUUID(), { enabled: false }, operator))).toBe(
        "resource.notfound",
      );
      expect((await rowOf(webhook.id)).enabled).toBe(true);
      expect(await eventsOf(other)).toEqual([]);
    });
  });

  describe("rotateSecret", () => {
    it("gives a new secret and keeps the old one signing until the overlap ends", async () => {
      const created = await store.create({ companyId, ...hook }, operator);
      const rotated = await store.rotateSecret(companyId, created.webhook.id, hour, operator);
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(created.secret);
      const until = new Date(clock.getTime() + hour);
      expect(rotated.webhook.previousSecretExpiresAt).toEqual(until);
      const row = await rowOf(created.webhook.id);
      expect(box.open(row.secretSealed)).toBe(rotated.secret);
      expect(box.open(row.previousSecretSealed ?? "")).toBe(created.secret);
      expect((await eventsOf(companyId)).at(-1)?.adminChange).toEqual({
        resource: "webhook",
        resourceId: created.webhook.id,
        action: "rotated",
        fields: ["secret"],
      });
      clock = until;
      expect((await store.list(companyId))[0]?.previousSecretExpiresAt).toBeUndefined();
    });

    it("keeps two secrets at most: a second rotation drops the first secret", async () => {
      const created = await store.create({ companyId, ...hook }, operator);
      const first = await store.rotateSecret(companyId, created.webhook.id, hour, operator);
      await store.rotateSecret(companyId, created.webhook.id, hour, operator);
      const row = await rowOf(created.webhook.id);
      expect(box.open(row.previousSecretSealed ?? "")).toBe(first.secret);
    });

    it("does not find another company's webhook", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      expect(await notFound(store.rotateSecret(randomUUID(), webhook.id, hour, operator))).toBe(
        "resource.notfound",
      );
    });
  });

  describe("delete", () => {
    it("deletes the webhook with its deliveries, and records it", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      await storeEventFor(database.db, webhook);
      await store.delete(companyId, webhook.id, operator);
      expect(await store.list(companyId)).toEqual([]);
      expect(
        await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id)),
      ).toEqual([]);
      expect((await eventsOf(companyId)).at(-1)?.adminChange).toEqual({
        resource: "webhook",
        resourceId: webhook.id,
        action: "deleted",
        fields: [],
      });
    });

    it("does not find another company's webhook, and keeps it", async () => {
      const { webhook } = await store.create({ companyId, ...hook }, operator);
      expect(await notFound(store.delete(randomUUID(), webhook.id, operator))).toBe("resource.notfound");
      expect(await store.list(companyId)).toHaveLength(1);
    });
  });
});
