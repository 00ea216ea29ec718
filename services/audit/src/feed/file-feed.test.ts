import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import { testBudgets } from "@auth/testing";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anEvent, capturingLogger, linesOf } from "../events.testing.js";
import { type AuditSchema, auditEvents, schema } from "../schema.js";
import { AuditStore } from "../store/audit-store.js";
import type { Feed } from "./feed.js";
import { type FileFeedOptions, startFileFeed } from "./file-feed.js";

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));
let database: OpenedDatabase<AuditSchema>;
let dir: string;

beforeAll(async () => {
  database = await openDatabase({ schema, migrationsFolder });
  dir = mkdtempSync(join(tmpdir(), "audit-file-feed-"));
}, testBudgets.pgliteOpenMs);
afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

let companyId: string;
let path: string;
let store: AuditStore;
let feeds: Feed[];

beforeEach(() => {
  companyId = randomUUID();
  path = join(dir, `${randomUUID()}.jsonl`);
  store = new AuditStore(database.db, { retryForMs: 60_000, logger: capturingLogger().logger });
  feeds = [];
});
afterEach(async () => {
  await Promise.all(feeds.map((feed) => feed.stop()));
});

function follow(options: Partial<FileFeedOptions> = {}): Feed {
  const feed = startFileFeed({
    path,
    pollMs: 20,
    idlePollMs: 100,
    writer: store,
    logger: capturingLogger().logger,
    maxBackoffMs: 100,
    ...options,
  });
  feeds.push(feed);
  return feed;
}

const someLines = (count: number) =>
  linesOf(
    Array.from({ length: count }, () =>
      anEvent("auth.password.changed", { companyId, userId: randomUUID() }),
    ),
  );
const idOf = (line: string) => (JSON.parse(line) as { id: string }).id;
const storedIds = async () =>
  (
    await database.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(eq(auditEvents.companyId, companyId))
  )
    .map((row) => row.id)
    .sort();
const idsOf = (lines: readonly string[]) => lines.map(idOf).sort();
const untilStored = (lines: readonly string[]) =>
  expect.poll(storedIds, { timeout: 30_000, interval: 20 }).toEqual(idsOf(lines));

describe("the events file feed", () => {
  it("stores the events of complete lines only; a partial last line waits for its end", async () => {
    const lines = someLines(3);
    const last = lines[2] ?? "";
    writeFileSync(path, `${lines[0]}\n${lines[1]}\n${last.slice(0, 40)}`);
    follow();
    await untilStored(lines.slice(0, 2));

    appendFileSync(path, `${last.slice(40)}\n`);
    await untilStored(lines);
    expect(await store.feedPosition(`file:${path}`)).toBe(Buffer.byteLength(`${lines.join("\n")}\n`));
  });

  it("waits for the file to appear", async () => {
    follow();
    const lines = someLines(2);
    writeFileSync(path, `${lines.join("\n")}\n`);
    await untilStored(lines);
  });

  it("goes on after a restart from the offset it stored, never reading a line twice", async () => {
    const before = someLines(3);
    writeFileSync(path, `${before.join("\n")}\n`);
    const first = follow();
    await untilStored(before);
    await first.stop();

    const after = someLines(2);
    appendFileSync(path, `${after.join("\n")}\n`);
    const given: string[] = [];
    follow({
      writer: {
        feedPosition: (feed) => store.feedPosition(feed),
        storeEvents: (lines, position) => {
          given.push(...lines);
          return store.storeEvents(lines, position);
        },
      },
    });
    await untilStored([...before, ...after]);
    expect(given).toEqual(after);
  });

  it("reads a file made anew (shorter than its offset) from its start", async () => {
    const old = someLines(3);
    writeFileSync(path, `${old.join("\n")}\n`);
    follow();
    await untilStored(old);

    const fresh = someLines(1);
    writeFileSync(path, `${fresh[0]}\n`);
    await untilStored([...old, ...fresh]);
  });

  it("tries a batch that failed again, losing nothing and storing nothing twice", async () => {
    const lines = someLines(5);
    writeFileSync(path, `${lines.join("\n")}\n`);
    let failures = 2;
    const outcomes: number[] = [];
    follow({
      writer: {
        feedPosition: (feed) => store.feedPosition(feed),
        storeEvents: async (batch, position) => {
          if (failures > 0) {
            failures -= 1;
            throw new Error("database unavailable");
          }
          return store.storeEvents(batch, position);
        },
      },
      afterStore: (outcome) => outcomes.push(outcome.stored),
    });
    await untilStored(lines);
    expect(failures).toBe(0);
    expect(outcomes).toEqual([5]);
  });

  it("finishes the batch under way when stopped", async () => {
    const lines = someLines(2);
    writeFileSync(path, `${lines.join("\n")}\n`);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let storing = false;
    const feed = follow({
      writer: {
        feedPosition: (feed) => store.feedPosition(feed),
        storeEvents: async (batch, position) => {
          storing = true;
          await gate;
          return store.storeEvents(batch, position);
        },
      },
    });
    await expect.poll(() => storing, { timeout: 30_000, interval: 10 }).toBe(true);
    let stopped = false;
    const stopping = feed.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await storedIds()).toEqual(idsOf(lines));
  });
});
