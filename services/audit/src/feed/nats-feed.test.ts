import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { ensureEventStream, eventStream, natsConnectOptions, subjectOf } from "@auth/events/nats";
import { type RunningNats, startNatsServer } from "@auth/events/testing";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import type { Event } from "@auth/proto/events";
import { testBudgets } from "@auth/testing";
import { type JetStreamManager, jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anEvent, capturingLogger, linesOf } from "../events.testing.js";
import { type AuditSchema, auditEvents, schema } from "../schema.js";
import { AuditStore, type StoreOutcome } from "../store/audit-store.js";
import type { EventWriter, Feed } from "./feed.js";
import { type NatsFeedOptions, startNatsFeed } from "./nats-feed.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const spawnMs = 120_000;
let database: OpenedDatabase<AuditSchema>;
let nats: RunningNats;
let nc: NatsConnection;
let manager: JetStreamManager;

beforeAll(
  async () => {
    [database, nats] = await Promise.all([openDatabase({ schema, migrationsFolder }), startNatsServer()]);
    nc = await connect(natsConnectOptions(nats.url));
    manager = await jetstreamManager(nc);
  },
  Math.max(spawnMs, testBudgets.pgliteOpenMs),
);
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
  await database?.close();
});

let companyId: string;
let consumer: string;
let store: AuditStore;
let feeds: Feed[];

beforeEach(async () => {
  companyId = randomUUID();
  consumer = `audit-${randomUUID().slice(0, 8)}`;
  store = new AuditStore(database.db, { retryForMs: 60_000, logger: capturingLogger().logger });
  feeds = [];
  await manager.streams.delete(eventStream.name).catch(() => {});
  // As the relays make it.
  await ensureEventStream(manager, 1);
});
afterEach(async () => {
  await Promise.all(feeds.map((feed) => feed.stop()));
});

function follow(options: Partial<NatsFeedOptions> = {}): Feed {
  const feed = startNatsFeed({
    url: nats.url,
    replicas: 1,
    consumer,
    writer: store,
    logger: capturingLogger().logger,
    pullWaitMs: 1_000,
    ackWaitMs: 2_000,
    maxBackoffMs: 200,
    connectRetry: { attemptTimeoutMs: 2_000, maxDelayMs: 200 },
    ...options,
  });
  feeds.push(feed);
  return feed;
}

const someEvents = (count: number) =>
  Array.from({ length: count }, () => anEvent("auth.password.changed", { companyId, userId: randomUUID() }));

/** Publishes as a relay does (the event id as the message id, unless another is given for a second copy). */
async function publish(events: readonly Event[], msgID?: (event: Event) => string): Promise<void> {
  const js = jetstream(nc);
  for (const [index, line] of linesOf(events).entries()) {
    const event = events[index] as Event;
    await js.publish(subjectOf(event), line, { msgID: msgID?.(event) ?? event.id });
  }
}

const storedIds = async () =>
  (
    await database.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(eq(auditEvents.companyId, companyId))
  )
    .map((row) => row.id)
    .sort();
const untilStored = (events: readonly Event[], timeout = 60_000) =>
  expect.poll(storedIds, { timeout, interval: 50 }).toEqual(events.map((event) => event.id).sort());
/** Every message of the stream acknowledged by the consumer. */
const untilAllAcknowledged = () =>
  expect
    .poll(
      async () => {
        const info = await manager.consumers.info(eventStream.name, consumer);
        return { pending: info.num_pending, unacknowledged: info.num_ack_pending };
      },
      { timeout: 60_000, interval: 50 },
    )
    .toEqual({ pending: 0, unacknowledged: 0 });

/** A writer that counts what it was given and stored. */
function countingWriter(inner: EventWriter = store) {
  const outcomes: StoreOutcome[] = [];
  const writer: EventWriter = {
    storeEvents: async (lines, position) => {
      const outcome = await inner.storeEvents(lines, position);
      outcomes.push(outcome);
      return outcome;
    },
  };
  const total = (field: keyof StoreOutcome) => outcomes.reduce((sum, outcome) => sum + outcome[field], 0);
  return { writer, outcomes, total };
}

describe("the NATS JetStream feed", () => {
  it(
    "stores every event of AUTH_EVENTS through its durable consumer, and acknowledges each once stored",
    async () => {
      const events = someEvents(25);
      await publish(events);
      follow({ batchSize: 10 });
      await untilStored(events);
      await untilAllAcknowledged();
      const info = await manager.consumers.info(eventStream.name, consumer);
      expect(info.config).toMatchObject({
        durable_name: consumer,
        ack_policy: "explicit",
        deliver_policy: "all",
      });
    },
    spawnMs,
  );

  it(
    "stores a second copy of an event, or a message delivered again, once",
    async () => {
      const events = someEvents(3);
      // The stream holds two copies of each (another message id: as a relay's after the duplicate window).
      await publish(events);
      await publish(events, () => randomUUID());
      let failed = false;
      const counted = countingWriter({
        // The first batch commits, then fails before its acknowledgement: it is delivered again.
        storeEvents: async (lines, position) => {
          const outcome = await store.storeEvents(lines, position);
          if (!failed) {
            failed = true;
            throw new Error("lost before the acknowledgement");
          }
          return outcome;
        },
      });
      follow({ writer: counted.writer });
      await untilStored(events);
      await untilAllAcknowledged();
      expect(counted.total("stored")).toBe(0);
      expect(counted.total("duplicates")).toBe(6);
    },
    spawnMs,
  );

  it(
    "starts while NATS is down, and reads once it answers",
    async () => {
      await nats.kill();
      follow();
      await nats.restart();
      const events = someEvents(5);
      await expect.poll(() => publish(events).then(() => true), { timeout: 60_000 }).toBe(true);
      await untilStored(events);
    },
    spawnMs,
  );

  it(
    "loses nothing and stores nothing twice when NATS is killed in the middle of the stream and restarted",
    async () => {
      const before = someEvents(20);
      await publish(before);
      let killed: Promise<void> | undefined;
      const counted = countingWriter({
        // NATS dies while the first batch is being stored: its acknowledgement cannot reach it.
        storeEvents: async (lines, position) => {
          killed ??= nats.kill();
          await killed;
          return store.storeEvents(lines, position);
        },
      });
      follow({ writer: counted.writer, batchSize: 5 });
      await expect.poll(() => killed !== undefined, { timeout: 60_000 }).toBe(true);
      await killed;
      await nats.restart();
      const after = someEvents(20);
      await expect.poll(() => publish(after).then(() => true), { timeout: 60_000 }).toBe(true);

      await untilStored([...before, ...after], 90_000);
      await untilAllAcknowledged();
      expect(counted.total("stored")).toBe(40);
    },
    spawnMs * 2,
  );

  it(
    "finishes the batch under way when stopped: stored, then acknowledged",
    async () => {
      const events = someEvents(4);
      await publish(events);
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let storing = false;
      const feed = follow({
        writer: {
          storeEvents: async (lines, position) => {
            storing = true;
            await gate;
            return store.storeEvents(lines, position);
          },
        },
      });
      await expect.poll(() => storing, { timeout: 60_000, interval: 10 }).toBe(true);
      let stopped = false;
      const stopping = feed.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(await storedIds()).toEqual(events.map((event) => event.id).sort());
      await untilAllAcknowledged();
    },
    spawnMs,
  );
});
