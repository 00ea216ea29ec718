import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OutboxEntry } from "@auth/kv";
import type { OpenedDatabase } from "@auth/pg";
import { databaseKinds } from "@auth/pg/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventFromJson } from "./event.js";
import { eventOutbox, eventOutboxMigration, pgOutboxSource, recordEvents } from "./pg-outbox.js";
import { someEvents } from "./relay.testing.js";

const schema = { eventOutbox };
let migrations: string;

/** A drizzle migrations folder whose one migration creates the outbox table, as a service's does. */
beforeAll(() => {
  migrations = mkdtempSync(join(tmpdir(), "outbox-migrations-"));
  mkdirSync(join(migrations, "meta"));
  writeFileSync(join(migrations, "0000_outbox.sql"), eventOutboxMigration);
  writeFileSync(
    join(migrations, "meta", "_journal.json"),
    JSON.stringify({
      version: "7",
      dialect: "postgresql",
      entries: [{ idx: 0, version: "7", when: 1_700_000_000_000, tag: "0000_outbox", breakpoints: true }],
    }),
  );
});
afterAll(() => rmSync(migrations, { recursive: true, force: true }));

describe.each(databaseKinds())("the PostgreSQL outbox on $name", (kind) => {
  let database: OpenedDatabase<typeof schema>;
  let events: string[];

  // One database per kind (opening PGlite compiles its WebAssembly each time); each test starts
  // from the same six events.
  beforeAll(async () => {
    database = await kind.open({ schema, migrationsFolder: migrations });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(eventOutbox);
    events = someEvents(6);
    for (const event of events) await recordEvents(database.db, [eventFromJson(event)]);
  });

  const rows = async () =>
    (await database.db.select().from(eventOutbox).orderBy(eventOutbox.position)).map((row) => row.payload);

  it("hands out the oldest rows in commit order and deletes them once published", async () => {
    const handed: OutboxEntry[] = [];
    const count = await pgOutboxSource(database.db).relayBatch(4, async (entries) => {
      handed.push(...entries);
    });
    expect(count).toBe(4);
    expect(handed.map((entry) => entry.payload)).toEqual(events.slice(0, 4));
    expect(await rows()).toEqual(events.slice(4));
  });

  it("keeps the rows when the publication fails", async () => {
    await expect(
      pgOutboxSource(database.db).relayBatch(4, async () => {
        throw new Error("sink unavailable");
      }),
    ).rejects.toThrow("sink unavailable");
    expect(await rows()).toEqual(events);
  });

  it("hands out nothing when the outbox is empty", async () => {
    await database.db.delete(eventOutbox);
    let published = false;
    expect(
      await pgOutboxSource(database.db).relayBatch(4, async () => {
        published = true;
      }),
    ).toBe(0);
    expect(published).toBe(false);
  });

  it("lets two relays never publish at the same time, nor the same row twice", async () => {
    const more = someEvents(40, 100);
    for (const event of more) await recordEvents(database.db, [eventFromJson(event)]);
    const published: string[] = [];
    let publishing = 0;
    let overlaps = 0;
    const publish = async (entries: readonly OutboxEntry[]) => {
      publishing += 1;
      if (publishing > 1) overlaps += 1;
      // Holds the batch across a turn of the event loop, where the other relay's query could run.
      await new Promise((resolve) => setImmediate(resolve));
      published.push(...entries.map((entry) => entry.payload));
      publishing -= 1;
    };
    const relayAll = async () => {
      const source = pgOutboxSource(database.db);
      while ((await source.relayBatch(3, publish)) > 0);
    };

    await Promise.all([relayAll(), relayAll()]);
    expect(overlaps).toBe(0);
    expect(published).toEqual([...events, ...more]);
  });
});
