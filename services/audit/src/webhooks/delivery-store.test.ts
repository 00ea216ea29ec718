import { randomBytes, randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { AuthError } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { DeliveryState } from "@auth/proto/audit";
import { SecretBox } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AuditSchema, schema, webhookDeliveries, webhooks } from "../schema.js";
import { DeliveryStore } from "./delivery-store.js";
import { storeEventFor } from "./stored-events.testing.js";
import { WebhookStore } from "./webhook-store.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const hour = 3_600_000;
const hook = { url: "https://hooks.example.com/in", eventTypes: ["auth.password.changed"], description: "" };

describe.each(databaseKinds())("delivery store on $name", (kind) => {
  let database: OpenedDatabase<AuditSchema>;
  let webhookStore: WebhookStore;
  let store: DeliveryStore;
  let clock: Date;
  let companyId: string;

  const deliveryRow = async (id: string) => {
    const [row] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    if (!row) throw new Error("no such delivery");
    return row;
  };
  const setDelivery = (id: string, values: Partial<typeof webhookDeliveries.$inferInsert>) =>
    database.db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, id));
  const errorCode = (promise: Promise<unknown>) => promise.catch((error: AuthError) => error.code);
  const newWebhook = async (company = companyId) =>
    (await webhookStore.create({ companyId: company, ...hook }, systemOrigin)).webhook;
  /** Claims what is due in the whole database, keeping the test's own webhook's. */
  const claimOwn = async (webhookId: string, limit = 1_000, holdMs = 60_000, now = clock) =>
    (await store.claimDue(limit, now, holdMs)).filter((claimed) => claimed.webhookId === webhookId);

  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder });
    const secretBox = new SecretBox(randomBytes(32));
    const options = { secretBox, retryForMs: 26 * hour, now: () => clock };
    webhookStore = new WebhookStore(database.db, options);
    store = new DeliveryStore(database.db, options);
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    // A moment after the deliveries the test stores, which are due as they are stored.
    clock = new Date(Date.now() + 1_000);
    companyId = randomUUID();
  });

  describe("claimDue", () => {
    it("claims the due deliveries of enabled webhooks, the longest due first, with what to send and the secret", async () => {
      const created = await webhookStore.create({ companyId, ...hook }, systemOrigin);
      const webhook = created.webhook;
      const older = await storeEventFor(database.db, webhook, {
        nextAttemptAt: new Date(clock.getTime() - 2_000),
      });
      const newer = await storeEventFor(database.db, webhook, {
        nextAttemptAt: new Date(clock.getTime() - 1_000),
      });
      await storeEventFor(database.db, webhook, { nextAttemptAt: new Date(clock.getTime() + 60_000) });
      const disabled = await newWebhook();
      await webhookStore.update(companyId, disabled.id, { enabled: false }, systemOrigin);
      await storeEventFor(database.db, disabled);

      const claimed = (await store.claimDue(1_000, clock, 60_000)).filter((c) => c.url === hook.url);
      const own = claimed.filter((c) => c.webhookId === webhook.id || c.webhookId === disabled.id);
      expect(own).toEqual([
        {
          id: older.deliveryId,
          webhookId: webhook.id,
          eventId: older.event.id,
          attempts: 0,
          retryUntil: expect.any(Date),
          url: hook.url,
          payload: older.payload,
          secrets: [created.secret],
        },
        expect.objectContaining({ id: newer.deliveryId }),
      ]);
    });

    it("claims at most the limit", async () => {
      const webhook = await newWebhook();
      for (let i = 0; i < 3; i += 1)
        await storeEventFor(database.db, webhook, { nextAttemptAt: new Date(0) });
      expect(await store.claimDue(2, clock, 60_000)).toHaveLength(2);
    });

    it("holds what it claims: claimed again only once the hold is over (its sender died)", async () => {
      const webhook = await newWebhook();
      const { deliveryId } = await storeEventFor(database.db, webhook);
      expect((await claimOwn(webhook.id, 1_000, 60_000)).map((c) => c.id)).toEqual([deliveryId]);
      expect(await claimOwn(webhook.id)).toEqual([]);
      expect((await deliveryRow(deliveryId)).nextAttemptAt).toEqual(new Date(clock.getTime() + 60_000));
      const afterHold = new Date(clock.getTime() + 60_000);
      expect((await claimOwn(webhook.id, 1_000, 60_000, afterHold)).map((c) => c.id)).toEqual([deliveryId]);
    });

    it("never gives one delivery to two claims made at once", async () => {
      const webhook = await newWebhook();
      const ids: string[] = [];
      // Due at the claims' clock however long the 40 take to store (a loaded machine: over a second).
      for (let i = 0; i < 40; i += 1)
        ids.push((await storeEventFor(database.db, webhook, { nextAttemptAt: clock })).deliveryId);
      // Room for every delivery due in the database, the earlier tests' that are still due too.
      const claims = await Promise.all(Array.from({ length: 8 }, () => store.claimDue(20, clock, 60_000)));
      const claimed = claims.flat().filter((c) => c.webhookId === webhook.id);
      expect(claimed.map((c) => c.id).sort()).toEqual(ids.sort());
    });

    it("signs with the rotated-out secret too while its overlap lasts, and then with the new one only", async () => {
      const created = await webhookStore.create({ companyId, ...hook }, systemOrigin);
      const rotated = await webhookStore.rotateSecret(companyId, created.webhook.id, hour, systemOrigin);
      await storeEventFor(database.db, created.webhook);
      const [during] = await claimOwn(created.webhook.id, 1_000, 1);
      expect(during?.secrets).toEqual([rotated.secret, created.secret]);
      const [after] = await claimOwn(created.webhook.id, 1_000, 1, new Date(clock.getTime() + hour));
      expect(after?.secrets).toEqual([rotated.secret]);
    });
  });

  describe("recordOutcome", () => {
    it("counts a failed attempt and sets the next one", async () => {
      const webhook = await newWebhook();
      const { deliveryId } = await storeEventFor(database.db, webhook);
      const next = new Date(clock.getTime() + 5_000);
      await store.recordOutcome(
        { id: deliveryId, webhookId: webhook.id },
        { attemptedAt: clock, status: 503, error: "status 503", state: "pending", nextAttemptAt: next },
      );
      expect(await deliveryRow(deliveryId)).toMatchObject({
        state: "pending",
        attempts: 1,
        lastAttemptAt: clock,
        lastStatus: 503,
        lastError: "status 503",
        nextAttemptAt: next,
      });
    });

    it("ends a delivery that succeeded, or is dead, with no next attempt", async () => {
      const webhook = await newWebhook();
      const succeeded = await storeEventFor(database.db, webhook);
      const dead = await storeEventFor(database.db, webhook);
      await store.recordOutcome(
        { id: succeeded.deliveryId, webhookId: webhook.id },
        { attemptedAt: clock, status: 200, error: "", state: "succeeded" },
      );
      await store.recordOutcome(
        { id: dead.deliveryId, webhookId: webhook.id },
        { attemptedAt: clock, status: 0, error: "timeout", state: "dead", gone: false },
      );
      expect(await deliveryRow(succeeded.deliveryId)).toMatchObject({
        state: "succeeded",
        nextAttemptAt: null,
      });
      expect(await deliveryRow(dead.deliveryId)).toMatchObject({ state: "dead", nextAttemptAt: null });
      expect((await database.db.select().from(webhooks).where(eq(webhooks.id, webhook.id)))[0]?.enabled).toBe(
        true,
      );
    });

    it("disables the webhook, gone, when its receiver answered 410", async () => {
      const webhook = await newWebhook();
      const { deliveryId } = await storeEventFor(database.db, webhook);
      await store.recordOutcome(
        { id: deliveryId, webhookId: webhook.id },
        { attemptedAt: clock, status: 410, error: "status 410", state: "dead", gone: true },
      );
      expect((await webhookStore.list(companyId))[0]).toMatchObject({
        enabled: false,
        disabledReason: "gone",
      });
      expect(await deliveryRow(deliveryId)).toMatchObject({ state: "dead", lastStatus: 410 });
    });
  });

  describe("list", () => {
    it("lists newest first, in pages that follow each other through equal creation times", async () => {
      const webhook = await newWebhook();
      const same = new Date();
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        ids.push((await storeEventFor(database.db, webhook, { createdAt: same })).deliveryId);
      }
      const newest = await storeEventFor(database.db, webhook, { createdAt: new Date(same.getTime() + 1) });
      const seen: string[] = [];
      let pageToken = "";
      do {
        const page = await store.list(companyId, webhook.id, {
          state: DeliveryState.UNSPECIFIED,
          pageSize: 2,
          pageToken,
        });
        expect(page.deliveries.length).toBeLessThanOrEqual(2);
        seen.push(...page.deliveries.map((delivery) => delivery.id));
        pageToken = page.nextPageToken;
      } while (pageToken !== "");
      expect(seen).toHaveLength(6);
      expect(seen[0]).toBe(newest.deliveryId);
      expect(seen.slice(1)).toEqual([...ids].sort().reverse());
    });

    it("gives no next page after the last one", async () => {
      const webhook = await newWebhook();
      await storeEventFor(database.db, webhook);
      await storeEventFor(database.db, webhook);
      const page = await store.list(companyId, webhook.id, {
        state: DeliveryState.UNSPECIFIED,
        pageSize: 2,
        pageToken: "",
      });
      expect(page.deliveries).toHaveLength(2);
      expect(page.nextPageToken).toBe("");
    });

    it("filters by state, and shows the next attempt of a pending delivery only", async () => {
      const webhook = await newWebhook();
      const pending = await storeEventFor(database.db, webhook);
      const dead = await storeEventFor(database.db, webhook);
      await setDelivery(dead.deliveryId, {
        state: "dead",
        attempts: 7,
        lastStatus: 500,
        lastError: "status 500",
      });
      const list = (state: DeliveryState) =>
        store.list(companyId, webhook.id, { state, pageSize: 100, pageToken: "" });
      expect((await list(DeliveryState.DEAD)).deliveries).toEqual([
        {
          id: dead.deliveryId,
          webhookId: webhook.id,
          eventId: dead.event.id,
          eventType: "auth.password.changed",
          state: DeliveryState.DEAD,
          attempts: 7,
          createdAt: expect.any(Date),
          nextAttemptAt: undefined,
          lastAttemptAt: undefined,
          lastStatus: 500,
          lastError: "status 500",
        },
      ]);
      const [waiting, ...others] = (await list(DeliveryState.PENDING)).deliveries;
      expect(others).toEqual([]);
      expect(waiting).toMatchObject({ id: pending.deliveryId, nextAttemptAt: expect.any(Date) });
      expect((await list(DeliveryState.SUCCEEDED)).deliveries).toEqual([]);
    });

    it("refuses a page token it did not make", async () => {
      const webhook = await newWebhook();
      for (const pageToken of ["nonsense", Buffer.from("2030-01-01 x").toString("base64url")]) {
        expect(
          await errorCode(
            store.list(companyId, webhook.id, { state: DeliveryState.UNSPECIFIED, pageSize: 1, pageToken }),
          ),
        ).toBe("request.validation.failed");
      }
    });

    it("does not find another company's webhook", async () => {
      const webhook = await newWebhook();
      expect(
        await errorCode(
          store.list(randomUUID(), webhook.id, {
            state: DeliveryState.UNSPECIFIED,
            pageSize: 1,
            pageToken: "",
          }),
        ),
      ).toBe("resource.notfound");
    });
  });

  describe("replay", () => {
    it("sends every dead delivery again from a first attempt, with a new retry period; the others stay", async () => {
      const webhook = await newWebhook();
      const dead = await storeEventFor(database.db, webhook);
      const succeeded = await storeEventFor(database.db, webhook);
      const pending = await storeEventFor(database.db, webhook, {
        nextAttemptAt: new Date(clock.getTime() + hour),
      });
      await setDelivery(dead.deliveryId, { state: "dead", attempts: 9, nextAttemptAt: null });
      await setDelivery(succeeded.deliveryId, { state: "succeeded", attempts: 1, nextAttemptAt: null });
      await setDelivery(pending.deliveryId, { attempts: 3 });

      expect(await store.replay(companyId, webhook.id, [])).toBe(1);
      expect(await deliveryRow(dead.deliveryId)).toMatchObject({
        state: "pending",
        attempts: 0,
        nextAttemptAt: clock,
        retryUntil: new Date(clock.getTime() + 26 * hour),
      });
      expect(await deliveryRow(succeeded.deliveryId)).toMatchObject({ state: "succeeded", attempts: 1 });
      expect(await deliveryRow(pending.deliveryId)).toMatchObject({ state: "pending", attempts: 3 });
    });

    it("sends the deliveries named again, but not one that is pending", async () => {
      const webhook = await newWebhook();
      const succeeded = await storeEventFor(database.db, webhook);
      const pending = await storeEventFor(database.db, webhook, {
        nextAttemptAt: new Date(clock.getTime() + hour),
      });
      await setDelivery(succeeded.deliveryId, { state: "succeeded", attempts: 1, nextAttemptAt: null });
      const another = await storeEventFor(database.db, await newWebhook());
      await setDelivery(another.deliveryId, { state: "dead" });

      expect(
        await store.replay(companyId, webhook.id, [
          succeeded.deliveryId,
          pending.deliveryId,
          another.deliveryId,
        ]),
      ).toBe(1);
      expect(await deliveryRow(succeeded.deliveryId)).toMatchObject({ state: "pending", attempts: 0 });
      expect((await deliveryRow(pending.deliveryId)).nextAttemptAt).toEqual(new Date(clock.getTime() + hour));
      expect((await deliveryRow(another.deliveryId)).state).toBe("dead");
    });

    it("does not find another company's webhook", async () => {
      const webhook = await newWebhook();
      expect(await errorCode(store.replay(randomUUID(), webhook.id, []))).toBe("resource.notfound");
    });
  });
});
