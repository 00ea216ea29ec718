import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { AuthError } from "@auth/errors";
import { eventFromJson, eventJson } from "@auth/events";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { ActorKind, type Event } from "@auth/proto/events";
import { metrics } from "@auth/telemetry";
import { testBudgets } from "@auth/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anEvent, capturingLogger, linesOf, userOrigin } from "../events.testing.js";
import { OWN_EVENT_TYPES } from "../own-events.js";
import {
  type AuditSchema,
  auditEvents,
  eventOutbox,
  schema,
  webhookDeliveries,
  webhooks,
} from "../schema.js";
import { AuditStore } from "./audit-store.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const retryForMs = 26 * 3_600_000;
const day = 86_400_000;

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: AuthError) => error.code,
  );

describe.each(databaseKinds())("the audit store on $name", (kind) => {
  let database: OpenedDatabase<AuditSchema>;
  let store: AuditStore;
  let log: ReturnType<typeof capturingLogger>;
  let companyId: string;
  let userId: string;

  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder });
  }, testBudgets.pgliteOpenMs);
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(() => {
    log = capturingLogger();
    store = new AuditStore(database.db, { retryForMs, logger: log.logger });
    companyId = randomUUID();
    userId = randomUUID();
  });

  const storedOf = async (company = companyId) =>
    database.db.select().from(auditEvents).where(eq(auditEvents.companyId, company));
  const aWebhook = async (values: { companyId?: string; eventTypes: string[]; enabled?: boolean }) => {
    const [row] = await database.db
      .insert(webhooks)
      .values({ companyId, url: "https://example.com/hook", secretSealed: "sealed", ...values })
      .returning({ id: webhooks.id });
    return row?.id ?? "";
  };
  const deliveriesOf = (webhookId: string) =>
    database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
  /** Every page of the query, in order. */
  const allPages = async (query: Omit<Parameters<AuditStore["listEvents"]>[0], "pageToken">) => {
    const pages: Event[][] = [];
    let pageToken = "";
    do {
      const page = await store.listEvents({ ...query, pageToken });
      pages.push(page.events);
      pageToken = page.nextPageToken;
    } while (pageToken !== "" && pages.length < 100);
    return pages;
  };

  describe("storeEvents", () => {
    it("stores each event once, by its id: a copy delivered again, or twice in one batch, changes nothing", async () => {
      const events = [1, 2, 3].map(() => anEvent("auth.password.changed", { companyId, userId }));
      const lines = linesOf(events);
      expect(await store.storeEvents([...lines, lines[0] ?? ""])).toEqual({
        stored: 3,
        duplicates: 1,
        skipped: 0,
        deliveries: 0,
      });
      expect(await store.storeEvents(lines)).toEqual({ stored: 0, duplicates: 3, skipped: 0, deliveries: 0 });
      expect((await storedOf()).map((row) => row.id).sort()).toEqual(events.map((event) => event.id).sort());
    });

    it("keeps the event's JSON as the stream carried it, and its columns for the queries", async () => {
      const sessionId = randomUUID();
      const event = anEvent("auth.login.succeeded", {
        companyId,
        userId,
        sessionId,
        origin: userOrigin(userId),
      });
      const line = eventJson(event);
      await store.storeEvents([line]);
      expect(await storedOf()).toEqual([
        expect.objectContaining({
          id: event.id,
          companyId,
          userId,
          sessionId,
          type: "auth.login.succeeded",
          source: "auth-suite/session",
          time: event.time,
          payload: line,
        }),
      ]);
    });

    it("skips, counts and logs an event no company can keep, or a line that is no event, and stores the rest", async () => {
      const kept = anEvent("auth.password.changed", { companyId, userId, origin: userOrigin(userId) });
      const noCompany = anEvent("auth.password.changed", {
        companyId: "",
        userId,
        origin: userOrigin(userId),
      });
      const notUuid = anEvent("auth.password.changed", {
        companyId: "company-1",
        userId,
        origin: userOrigin(userId),
      });
      const outcome = await store.storeEvents([...linesOf([noCompany, kept, notUuid]), "{not json"]);
      expect(outcome).toEqual({ stored: 1, duplicates: 0, skipped: 3, deliveries: 0 });
      expect((await storedOf()).map((row) => row.id)).toEqual([kept.id]);
      const warnings = log.lines.filter((line) => line.includes("security event skipped"));
      expect(warnings).toHaveLength(3);
      expect(warnings.join("\n")).toContain(noCompany.id);
      // The log names the event, never what it carries.
      expect(warnings.join("\n")).not.toContain("203.0.113.9");
      expect(warnings.join("\n")).not.toContain(userId);
    });

    it("counts the events read by outcome, and the delay from their commit to the audit's", async () => {
      const readCount = async (outcome: string) =>
        (await metrics.auditEventsRead.get()).values.find((value) => value.labels.outcome === outcome)
          ?.value ?? 0;
      const delays = async () =>
        (await metrics.auditEventDelay.get()).values.find((value) => value.metricName?.endsWith("_count"))
          ?.value ?? 0;
      const before = {
        stored: await readCount("stored"),
        duplicate: await readCount("duplicate"),
        skipped: await readCount("skipped"),
        delays: await delays(),
      };
      const event = anEvent("auth.password.changed", { companyId, userId });
      await store.storeEvents([...linesOf([event, event]), "{not json"]);
      expect({
        stored: (await readCount("stored")) - before.stored,
        duplicate: (await readCount("duplicate")) - before.duplicate,
        skipped: (await readCount("skipped")) - before.skipped,
        delays: (await delays()) - before.delays,
      }).toEqual({ stored: 1, duplicate: 1, skipped: 1, delays: 1 });
    });

    it("makes one pending delivery per enabled webhook of the event's company subscribed to its type, once", async () => {
      const subscribed = await aWebhook({ eventTypes: ["auth.login.succeeded", "auth.password.changed"] });
      const otherType = await aWebhook({ eventTypes: ["auth.password.changed"] });
      const disabled = await aWebhook({ eventTypes: ["auth.login.succeeded"], enabled: false });
      const otherCompany = await aWebhook({ companyId: randomUUID(), eventTypes: ["auth.login.succeeded"] });
      const event = anEvent("auth.login.succeeded", { companyId, userId });
      const before = Date.now();

      expect((await store.storeEvents(linesOf([event]))).deliveries).toBe(1);
      expect((await store.storeEvents(linesOf([event]))).deliveries).toBe(0);

      const [delivery, ...more] = await deliveriesOf(subscribed);
      expect(more).toEqual([]);
      expect(delivery).toMatchObject({
        eventId: event.id,
        eventType: "auth.login.succeeded",
        state: "pending",
        attempts: 0,
      });
      const next = delivery?.nextAttemptAt?.getTime() ?? 0;
      expect(next).toBeGreaterThanOrEqual(before - 1_000);
      expect(next).toBeLessThanOrEqual(Date.now() + 1_000);
      expect((delivery?.retryUntil.getTime() ?? 0) - next).toBe(retryForMs);
      for (const webhook of [otherType, disabled, otherCompany])
        expect(await deliveriesOf(webhook)).toEqual([]);
    });

    it("stores the feed's position with the events, in their transaction: both or neither", async () => {
      const feed = `file:/tmp/${randomUUID()}.jsonl`;
      const [first, second] = [1, 2].map(() => anEvent("auth.password.changed", { companyId, userId }));
      await store.storeEvents(linesOf([first as Event]), { feed, position: 120 });
      expect(await store.feedPosition(feed)).toBe(120);

      // audit_events refuses this company's next row: the transaction fails after the insert was sent.
      await database.db.execute(
        sql.raw(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'refused'; END $$`),
      );
      await database.db.execute(
        sql.raw(`CREATE TRIGGER refuse_event BEFORE INSERT ON audit_events FOR EACH ROW
          WHEN (NEW.company_id = '${companyId}') EXECUTE FUNCTION refuse_event()`),
      );
      try {
        await expect(
          store.storeEvents(linesOf([second as Event]), { feed, position: 240 }),
        ).rejects.toThrow();
      } finally {
        await database.db.execute(sql.raw("DROP TRIGGER refuse_event ON audit_events"));
        await database.db.execute(sql.raw("DROP FUNCTION refuse_event()"));
      }
      expect(await store.feedPosition(feed)).toBe(120);
      expect((await storedOf()).map((row) => row.id)).toEqual([first?.id]);
    });

    it("moves the feed's position past lines it skipped, storing nothing", async () => {
      const feed = `file:/tmp/${randomUUID()}.jsonl`;
      expect(await store.feedPosition(feed)).toBe(0);
      await store.storeEvents(["{not json"], { feed, position: 10 });
      expect(await store.feedPosition(feed)).toBe(10);
    });
  });

  describe("listEvents", () => {
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 12, minutes));

    it("lists the company's events newest first, by time then id, across pages of events with equal times", async () => {
      const events = [0, 0, 0, 0, 1, 1, 1, 2, 3, 3].map((minute) =>
        anEvent("auth.password.changed", { companyId, userId, time: at(minute) }),
      );
      await store.storeEvents(linesOf(events));
      await store.storeEvents(
        linesOf([anEvent("auth.password.changed", { companyId: randomUUID(), userId })]),
      );
      const expected = [...events]
        .sort((a, b) => (a.time?.getTime() ?? 0) - (b.time?.getTime() ?? 0) || (a.id < b.id ? -1 : 1))
        .reverse()
        .map((event) => event.id);

      const pages = await allPages({ companyId, types: [], pageSize: 3 });
      expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 1]);
      expect(pages.flat().map((event) => event.id)).toEqual(expected);
    });

    it("answers each event as the stream carried it", async () => {
      const event = anEvent("auth.login.succeeded", { companyId, userId, origin: userOrigin(userId) });
      await store.storeEvents(linesOf([event]));
      expect((await store.listEvents({ companyId, types: [], pageSize: 10, pageToken: "" })).events).toEqual([
        eventFromJson(eventJson(event)),
      ]);
    });

    it("keeps a page's place when newer events are stored meanwhile", async () => {
      const events = [0, 1, 2, 3].map((minute) =>
        anEvent("auth.password.changed", { companyId, userId, time: at(minute) }),
      );
      await store.storeEvents(linesOf(events));
      const first = await store.listEvents({ companyId, types: [], pageSize: 2, pageToken: "" });
      await store.storeEvents(
        linesOf([anEvent("auth.password.changed", { companyId, userId, time: at(9) })]),
      );
      const second = await store.listEvents({
        companyId,
        types: [],
        pageSize: 2,
        pageToken: first.nextPageToken,
      });
      expect(second.events.map((event) => event.id)).toEqual([events[1]?.id, events[0]?.id]);
      expect(second.nextPageToken).toBe("");
    });

    it("filters by user, by types, and by time from (inclusive) to (exclusive)", async () => {
      const otherUser = randomUUID();
      const login = anEvent("auth.login.succeeded", { companyId, userId, time: at(1) });
      const password = anEvent("auth.password.changed", { companyId, userId, time: at(2) });
      const others = anEvent("auth.login.succeeded", { companyId, userId: otherUser, time: at(3) });
      const company = anEvent("admin.policy.changed", { companyId, time: at(4) });
      await store.storeEvents(linesOf([login, password, others, company]));
      const ids = async (query: Partial<Parameters<AuditStore["listEvents"]>[0]>) =>
        (await store.listEvents({ companyId, types: [], pageSize: 100, pageToken: "", ...query })).events.map(
          (event) => event.id,
        );

      expect(await ids({ userId })).toEqual([password.id, login.id]);
      expect(await ids({ types: ["auth.login.succeeded", "admin.policy.changed"] })).toEqual([
        company.id,
        others.id,
        login.id,
      ]);
      expect(await ids({ from: at(2), to: at(4) })).toEqual([others.id, password.id]);
      expect(await ids({ userId, types: ["auth.login.succeeded"], from: at(1), to: at(2) })).toEqual([
        login.id,
      ]);
    });

    it.each([
      ["not base64url", "***"],
      ["no time", Buffer.from(` ${randomUUID()}`).toString("base64url")],
      ["no UUID", Buffer.from("2030-01-01T12:00:00.000Z 42").toString("base64url")],
    ])("refuses a page token it did not give (%s): request.validation.failed", async (_, pageToken) => {
      expect(await codeOf(store.listEvents({ companyId, types: [], pageSize: 10, pageToken }))).toBe(
        "request.validation.failed",
      );
    });
  });

  describe("ownEvents", () => {
    it("lists the user's own kinds of event only, newest first, at most the limit", async () => {
      const mine = OWN_EVENT_TYPES.map((type, minute) =>
        anEvent(type, { companyId, userId, time: new Date(Date.UTC(2030, 0, 1, 0, minute)) }),
      );
      const notMine = [
        anEvent("auth.otp.sent", { companyId, userId }),
        anEvent("auth.disclaimer.accepted", { companyId, userId }),
        anEvent("auth.second_factor.passed", { companyId, userId }),
        anEvent("admin.policy.changed", { companyId }),
        anEvent("auth.login.succeeded", { companyId, userId: randomUUID() }),
        anEvent("auth.login.succeeded", { companyId: randomUUID(), userId }),
      ];
      await store.storeEvents(linesOf([...mine, ...notMine]));

      const listed = await store.ownEvents(companyId, userId, 100);
      expect(listed.map((event) => event.id)).toEqual(mine.map((event) => event.id).reverse());
      expect((await store.ownEvents(companyId, userId, 2)).map((event) => event.type)).toEqual([
        "admin.session.revoked",
        "admin.user.changed",
      ]);
    });
  });

  describe("retention", () => {
    const outboxOf = async () =>
      (await database.db.select().from(eventOutbox).orderBy(eventOutbox.position))
        .map((row) => eventFromJson(row.payload))
        .filter((event) => event.companyid === companyId);

    it("is 90 days for a company no operator set it for", async () => {
      expect(await store.retentionDays(companyId)).toBe(90);
    });

    it("is what the operator set, recorded as one admin.retention.changed in the write's transaction", async () => {
      const operator = { ...userOrigin(""), actor: { ...userOrigin("").actor, kind: ActorKind.OPERATOR } };
      expect(await store.setRetentionDays(companyId, 30, operator)).toBe(30);
      expect(await store.retentionDays(companyId)).toBe(30);
      expect(await store.setRetentionDays(companyId, 365, operator)).toBe(365);
      expect(await store.retentionDays(companyId)).toBe(365);
      // What is already in force changes nothing.
      await store.setRetentionDays(companyId, 365, operator);

      const recorded = await outboxOf();
      expect(recorded.map((event) => [event.type, event.subject, event.adminChange])).toEqual(
        [1, 2].map(() => [
          "admin.retention.changed",
          `retention/${companyId}`,
          { resource: "retention", resourceId: companyId, action: "updated", fields: ["days"] },
        ]),
      );
      expect(recorded[0]).toMatchObject({ source: "auth-suite/audit", companyid: companyId, userid: "" });
    });
  });

  describe("sweepRetention", () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);

    it("deletes each company's events older than its retention, 90 days by default, with their deliveries", async () => {
      const shortLived = randomUUID();
      await store.setRetentionDays(shortLived, 1, userOrigin(""));
      const webhookId = await aWebhook({ eventTypes: ["auth.password.changed"] });
      const old = anEvent("auth.password.changed", { companyId, userId, time: ago(91 * day) });
      const recent = anEvent("auth.password.changed", { companyId, userId, time: ago(89 * day) });
      const dayOld = anEvent("auth.password.changed", { companyId: shortLived, userId, time: ago(2 * day) });
      const hourOld = anEvent("auth.password.changed", {
        companyId: shortLived,
        userId,
        time: ago(3_600_000),
      });
      await store.storeEvents(linesOf([old, recent, dayOld, hourOld]));
      expect(await deliveriesOf(webhookId)).toHaveLength(2);

      expect(await store.sweepRetention(now)).toBeGreaterThanOrEqual(2);
      expect((await storedOf()).map((row) => row.id)).toEqual([recent.id]);
      expect((await storedOf(shortLived)).map((row) => row.id)).toEqual([hourOld.id]);
      expect((await deliveriesOf(webhookId)).map((row) => row.eventId)).toEqual([recent.id]);
    });

    it("deletes more than one batch of a company's expired events until none is left", async () => {
      const expired = Array.from({ length: 2_100 }, () =>
        anEvent("auth.password.changed", { companyId, userId, time: ago(100 * day) }),
      );
      await store.storeEvents(linesOf(expired));
      await store.sweepRetention(now);
      expect(await storedOf()).toEqual([]);
    });
  });
});
