import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { systemOrigin } from "@auth/events";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { createLogger, SecretBox } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type AuditSchema, schema, webhookDeliveries, webhooks } from "../schema.js";
import { type AttemptOutcome, DeliveryStore } from "./delivery-store.js";
import { type Dispatcher, type DispatcherConfig, startDispatcher } from "./dispatcher.js";
import {
  type Answer,
  makeReceiverTls,
  type Receiver,
  type ReceiverTls,
  startReceiver,
} from "./receiver.testing.js";
import { httpsSenderOf, type Sender } from "./sender.js";
import { storeEventFor } from "./stored-events.testing.js";
import { WebhookStore } from "./webhook-store.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const hour = 3_600_000;
const logger = createLogger("audit", "silent");
const loopback = ["127.0.0.1/32"];
/** Quick retries and polls, so that a test waits little; the attempt's timeout stays generous. */
const quick: DispatcherConfig = {
  WEBHOOK_CONCURRENCY: 4,
  WEBHOOK_POLL_MS: 20,
  WEBHOOK_TIMEOUT_MS: 60_000,
  WEBHOOK_RETRY_BASE_MS: 20,
  WEBHOOK_RETRY_MAX_MS: 100,
};
const waitLong = { timeout: 50_000, interval: 20 };

/** The counter's value for one outcome. */
const deliveriesCounted = async (outcome: string) =>
  (await metrics.webhookDeliveries.get()).values.find((value) => value.labels.outcome === outcome)?.value ??
  0;

describe("webhook dispatcher", () => {
  let database: OpenedDatabase<AuditSchema>;
  let tls: ReceiverTls;
  let dir: string;
  let caFile: string;
  let webhookStore: WebhookStore;
  let deliveryStore: DeliveryStore;
  let companyId: string;
  const receivers: Receiver[] = [];
  const dispatchers: Dispatcher[] = [];
  /** Every outcome the dispatchers recorded, in order. */
  let outcomes: Array<AttemptOutcome & { deliveryId: string }>;

  const receiver = async (answer?: (index: number) => Answer | Promise<Answer>) => {
    const started = await startReceiver(tls, answer);
    receivers.push(started);
    return started;
  };
  const senderOf = (config: DispatcherConfig, allowed = loopback): Sender =>
    httpsSenderOf({ ...config, WEBHOOK_ALLOWED_CIDRS: allowed, WEBHOOK_CA_FILE: caFile });
  /** A dispatcher over the test's database that notes each outcome it records. */
  const dispatch = (config = quick, sender = senderOf(config)) => {
    const dispatcher = startDispatcher({
      store: {
        claimDue: (...args) => deliveryStore.claimDue(...args),
        recordOutcome: async (delivery, outcome) => {
          await deliveryStore.recordOutcome(delivery, outcome);
          outcomes.push({ ...outcome, deliveryId: delivery.id });
        },
      },
      sender,
      config,
      logger,
    });
    dispatchers.push(dispatcher);
    return dispatcher;
  };
  const webhookTo = async (url: string) =>
    webhookStore.create(
      { companyId, url, eventTypes: ["auth.password.changed"], description: "" },
      systemOrigin,
    );
  const deliveryRow = async (id: string) => {
    const [row] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    return row;
  };
  const outcomesOf = (deliveryId: string) => outcomes.filter((outcome) => outcome.deliveryId === deliveryId);
  const settledOf = (deliveryId: string) =>
    vi.waitFor(() => {
      const last = outcomesOf(deliveryId).at(-1);
      if (!last || last.state === "pending") throw new Error("not settled yet");
      return outcomesOf(deliveryId);
    }, waitLong);

  beforeAll(async () => {
    database = await openDatabase({ schema, migrationsFolder });
    tls = await makeReceiverTls();
    dir = mkdtempSync(join(tmpdir(), "webhook-dispatcher-"));
    caFile = join(dir, "receivers-ca.pem");
    writeFileSync(caFile, tls.ca);
    const options = { secretBox: new SecretBox(randomBytes(32)), retryForMs: hour };
    webhookStore = new WebhookStore(database.db, options);
    deliveryStore = new DeliveryStore(database.db, options);
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    companyId = randomUUID();
    outcomes = [];
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await database.db.delete(webhooks);
  });

  describe("signatures", () => {
    it("signs a delivery so that Standard Webhooks verifies it with the webhook's secret", async () => {
      const target = await receiver();
      const { webhook, secret } = await webhookTo(target.url);
      const { event, payload, deliveryId } = await storeEventFor(database.db, webhook);
      dispatch();
      const [got] = await target.receivedCount(1);
      expect(got?.headers["webhook-id"]).toBe(event.id);
      expect(got?.body).toBe(payload);
      expect(new Webhook(secret).verify(got?.body ?? "", got?.headers ?? {})).toMatchObject({ id: event.id });
      expect(await settledOf(deliveryId)).toMatchObject([{ state: "succeeded", status: 204, error: "" }]);
      expect(await deliveryRow(deliveryId)).toMatchObject({
        state: "succeeded",
        attempts: 1,
        lastStatus: 204,
      });
    });

    it("signs with both secrets during a rotation's overlap, and with the new one only once it ends", async () => {
      const target = await receiver();
      const created = await webhookTo(target.url);
      const rotated = await webhookStore.rotateSecret(companyId, created.webhook.id, hour, systemOrigin);
      await storeEventFor(database.db, created.webhook);
      dispatch();
      const [during] = await target.receivedCount(1);
      for (const secret of [created.secret, rotated.secret]) {
        expect(() => new Webhook(secret).verify(during?.body ?? "", during?.headers ?? {})).not.toThrow();
      }

      await database.db
        .update(webhooks)
        .set({ previousSecretExpiresAt: new Date(Date.now() - 1_000) })
        .where(eq(webhooks.id, created.webhook.id));
      await storeEventFor(database.db, created.webhook);
      const [, after] = await target.receivedCount(2);
      expect(() => new Webhook(rotated.secret).verify(after?.body ?? "", after?.headers ?? {})).not.toThrow();
      expect(() => new Webhook(created.secret).verify(after?.body ?? "", after?.headers ?? {})).toThrow(
        /No matching signature/,
      );
    });
  });

  describe("retries", () => {
    it("retries a receiver that fails (500) until it recovers, counting every attempt", async () => {
      const [failedBefore, succeededBefore] = [
        await deliveriesCounted("failed"),
        await deliveriesCounted("succeeded"),
      ];
      const target = await receiver((index) => ({ status: index < 2 ? 500 : 204 }));
      const { webhook } = await webhookTo(target.url);
      const { event, deliveryId } = await storeEventFor(database.db, webhook);
      dispatch();
      expect(await settledOf(deliveryId)).toMatchObject([
        { state: "pending", status: 500, error: "status 500" },
        { state: "pending", status: 500, error: "status 500" },
        { state: "succeeded", status: 204, error: "" },
      ]);
      expect(await deliveryRow(deliveryId)).toMatchObject({
        state: "succeeded",
        attempts: 3,
        nextAttemptAt: null,
      });
      expect(target.received.map((got) => got.headers["webhook-id"])).toEqual([event.id, event.id, event.id]);
      expect(await deliveriesCounted("failed")).toBe(failedBefore + 2);
      expect(await deliveriesCounted("succeeded")).toBe(succeededBefore + 1);
    });

    it("counts a receiver that never answers as failed, 'timeout', and tries again", async () => {
      const target = await receiver((index) => (index === 0 ? "hang" : { status: 200 }));
      const { webhook } = await webhookTo(target.url);
      const { deliveryId } = await storeEventFor(database.db, webhook);
      const impatient = { ...quick, WEBHOOK_TIMEOUT_MS: 2_000 };
      dispatch(impatient);
      const settled = await settledOf(deliveryId);
      expect(settled[0]).toMatchObject({ state: "pending", status: 0, error: "timeout" });
      expect(settled.at(-1)).toMatchObject({ state: "succeeded", status: 200 });
      // A machine slow enough may time out the answered attempts too: each is retried alike.
      expect(settled.slice(1, -1).every((outcome) => outcome.error === "timeout")).toBe(true);
      expect(target.received).toHaveLength(settled.length);
    });

    it("ends in dead once the next attempt would fall after the retry period", async () => {
      const deadBefore = await deliveriesCounted("dead");
      const target = await receiver(() => ({ status: 503 }));
      const { webhook } = await webhookTo(target.url);
      const { deliveryId } = await storeEventFor(database.db, webhook, {
        retryUntil: new Date(Date.now() + 300),
      });
      dispatch();
      const settled = await settledOf(deliveryId);
      expect(settled.at(-1)).toMatchObject({ state: "dead", gone: false, status: 503, error: "status 503" });
      expect(settled.slice(0, -1).every((outcome) => outcome.state === "pending")).toBe(true);
      expect(await deliveryRow(deliveryId)).toMatchObject({
        state: "dead",
        attempts: settled.length,
        lastStatus: 503,
        lastError: "status 503",
        nextAttemptAt: null,
      });
      expect(await deliveriesCounted("dead")).toBe(deadBefore + 1);
      expect((await webhookStore.list(companyId))[0]?.enabled).toBe(true);
    });

    it("sends a replayed dead delivery again, from a first attempt, with the same webhook-id", async () => {
      let recovered = false;
      const target = await receiver(() => ({ status: recovered ? 204 : 500 }));
      const { webhook } = await webhookTo(target.url);
      const { event, deliveryId } = await storeEventFor(database.db, webhook, {
        retryUntil: new Date(Date.now() + 100),
      });
      dispatch();
      await settledOf(deliveryId);
      const failedAttempts = target.received.length;
      recovered = true;
      outcomes = [];
      expect(await deliveryStore.replay(companyId, webhook.id, [])).toBe(1);
      expect(await settledOf(deliveryId)).toMatchObject([{ state: "succeeded", status: 204 }]);
      expect(target.received).toHaveLength(failedAttempts + 1);
      expect(new Set(target.received.map((got) => got.headers["webhook-id"]))).toEqual(new Set([event.id]));
      expect(await deliveryRow(deliveryId)).toMatchObject({ state: "succeeded", attempts: 1 });
    });
  });

  describe("410 Gone", () => {
    it("makes the delivery dead at once and disables the webhook: nothing more is sent to it", async () => {
      const gone = await receiver(() => ({ status: 410 }));
      const marker = await receiver();
      const { webhook } = await webhookTo(gone.url);
      const first = await storeEventFor(database.db, webhook);
      // One attempt at a time, the longest due first: what is due before the marker is sent before it.
      dispatch({ ...quick, WEBHOOK_CONCURRENCY: 1 });
      expect(await settledOf(first.deliveryId)).toMatchObject([{ state: "dead", gone: true, status: 410 }]);
      expect((await webhookStore.list(companyId))[0]).toMatchObject({
        enabled: false,
        disabledReason: "gone",
      });

      const second = await storeEventFor(database.db, webhook);
      const markerDelivery = await storeEventFor(database.db, (await webhookTo(marker.url)).webhook);
      await settledOf(markerDelivery.deliveryId);
      expect(gone.received).toHaveLength(1);
      expect(await deliveryRow(second.deliveryId)).toMatchObject({ state: "pending", attempts: 0 });
    });
  });

  describe("where a delivery may go", () => {
    it("does not follow a redirect: the attempt fails and the receiver it points to is never asked", async () => {
      const elsewhere = await receiver();
      const target = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
      const { webhook } = await webhookTo(target.url);
      const { deliveryId } = await storeEventFor(database.db, webhook, {
        retryUntil: new Date(Date.now() + 100),
      });
      dispatch();
      const settled = await settledOf(deliveryId);
      expect(
        settled.every((outcome) => outcome.status === 302 && outcome.error === "redirect not followed"),
      ).toBe(true);
      expect(elsewhere.received).toHaveLength(0);
    });

    it("refuses loopback at the connection when it is not allowed, even by a host name", async () => {
      const target = await receiver();
      const { webhook } = await webhookTo(`https://localhost:${target.port}/hook`);
      const { deliveryId } = await storeEventFor(database.db, webhook, {
        retryUntil: new Date(Date.now() + 100),
      });
      dispatch(quick, senderOf(quick, []));
      const settled = await settledOf(deliveryId);
      expect(settled.every((outcome) => outcome.status === 0 && outcome.error === "refused address")).toBe(
        true,
      );
      expect(target.received).toHaveLength(0);
    });
  });

  describe("its loop", () => {
    it("looks for due deliveries at once when nudged, rather than at the next poll", async () => {
      const target = await receiver();
      const { webhook } = await webhookTo(target.url);
      let firstLook: () => void = () => {};
      const looked = new Promise<void>((resolve) => {
        firstLook = resolve;
      });
      const dispatcher = startDispatcher({
        store: {
          claimDue: async (...args) => {
            const claimed = await deliveryStore.claimDue(...args);
            firstLook();
            return claimed;
          },
          recordOutcome: (delivery, outcome) => deliveryStore.recordOutcome(delivery, outcome),
        },
        sender: senderOf(quick),
        config: { ...quick, WEBHOOK_POLL_MS: 3_600_000 },
        logger,
      });
      dispatchers.push(dispatcher);
      await looked;
      await storeEventFor(database.db, webhook);
      dispatcher.nudge();
      await target.receivedCount(1);
    });

    it("keeps looking when a claim fails (its database was down for a while)", async () => {
      const target = await receiver();
      const { webhook } = await webhookTo(target.url);
      await storeEventFor(database.db, webhook);
      let failures = 3;
      const dispatcher = startDispatcher({
        store: {
          claimDue: (...args) =>
            failures-- > 0
              ? Promise.reject(new Error("Connection terminated unexpectedly"))
              : deliveryStore.claimDue(...args),
          recordOutcome: (delivery, outcome) => deliveryStore.recordOutcome(delivery, outcome),
        },
        sender: senderOf(quick),
        config: quick,
        logger,
      });
      dispatchers.push(dispatcher);
      await target.receivedCount(1);
      expect(failures).toBeLessThan(0);
    });

    it("stops only once the attempts under way are recorded", async () => {
      let answer: (how: Answer) => void = () => {};
      const target = await receiver(
        () =>
          new Promise<Answer>((resolve) => {
            answer = resolve;
          }),
      );
      const { webhook } = await webhookTo(target.url);
      const { deliveryId } = await storeEventFor(database.db, webhook);
      const dispatcher = dispatch();
      await target.receivedCount(1);
      const stopped = dispatcher.stop();
      answer({ status: 204 });
      await stopped;
      expect(outcomesOf(deliveryId)).toMatchObject([{ state: "succeeded" }]);
    });
  });
});

describe.each(databaseKinds())("two dispatchers on one database ($name)", (kind) => {
  let database: OpenedDatabase<AuditSchema>;
  let tls: ReceiverTls;
  let dir: string;

  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder });
    tls = await makeReceiverTls();
    dir = mkdtempSync(join(tmpdir(), "webhook-dispatchers-"));
    writeFileSync(join(dir, "ca.pem"), tls.ca);
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("never send one delivery twice: each claims its own", async () => {
    const concurrency = 4;
    const count = 40;
    // The first 2 × concurrency requests are held until that many are under way at once, which
    // only both dispatchers together can reach.
    const held: Array<() => void> = [];
    let releasedAll = false;
    const target = await startReceiver(tls, () => {
      if (releasedAll) return { status: 204 };
      return new Promise<Answer>((resolve) => {
        held.push(() => resolve({ status: 204 }));
        if (held.length === 2 * concurrency) {
          releasedAll = true;
          for (const release of held) release();
        }
      });
    });
    const options = { secretBox: new SecretBox(randomBytes(32)), retryForMs: hour };
    const webhookStore = new WebhookStore(database.db, options);
    const { webhook } = await webhookStore.create(
      { companyId: randomUUID(), url: target.url, eventTypes: ["auth.password.changed"], description: "" },
      systemOrigin,
    );
    const eventIds: string[] = [];
    for (let i = 0; i < count; i += 1) eventIds.push((await storeEventFor(database.db, webhook)).event.id);
    const config = { ...quick, WEBHOOK_CONCURRENCY: concurrency };
    const sender = httpsSenderOf({
      ...config,
      WEBHOOK_ALLOWED_CIDRS: loopback,
      WEBHOOK_CA_FILE: join(dir, "ca.pem"),
    });
    const dispatchers = [1, 2].map(() =>
      startDispatcher({ store: new DeliveryStore(database.db, options), sender, config, logger }),
    );
    try {
      const received = await target.receivedCount(count);
      await vi.waitFor(async () => {
        const rows = await database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, webhook.id));
        expect(rows.filter((row) => row.state === "succeeded")).toHaveLength(count);
      }, waitLong);
      expect(received.map((got) => got.headers["webhook-id"]).sort()).toEqual(eventIds.sort());
      expect(target.received).toHaveLength(count);
    } finally {
      await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
      await target.close();
    }
  });
});
