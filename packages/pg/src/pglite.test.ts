import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { testBudgets } from "@auth/testing";
import { sql } from "drizzle-orm";
import { pgTable, text } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, it } from "vitest";
import { emptyClusterFile, emptyClusterFolder, openPglite } from "./pglite.js";

const items = pgTable("items", { id: text("id").primaryKey() });
const schema = { items };
const migrationsFolder = fileURLToPath(new URL("../test/migrations", import.meta.url));

describe(`the embedded store in a data folder (docs/performance.md, "The embedded default's memory")`, () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), "pglite-test-")), "store");
  afterAll(() => rmSync(join(dataDir, ".."), { recursive: true, force: true }));

  it("is made on the first open and found, rows and all, on the next", {
    timeout: 3 * testBudgets.pgliteOpenMs,
  }, async () => {
    const first = await openPglite({ dataDir, schema, migrationsFolder });
    await first.db.insert(items).values({ id: "kept" });
    await first.close();
    const next = await openPglite({ dataDir, schema, migrationsFolder });
    try {
      expect(await next.db.select().from(items)).toEqual([{ id: "kept" }]);
    } finally {
      await next.close();
    }
  });

  it("is a copy of the empty cluster's folder kept in the user's cache, which no store changes", {
    timeout: 2 * testBudgets.pgliteOpenMs,
  }, async () => {
    const folder = emptyClusterFolder();
    const other = join(mkdtempSync(join(tmpdir(), "pglite-test-")), "store");
    try {
      const opened = await openPglite({ dataDir: other, schema, migrationsFolder });
      await opened.db.insert(items).values({ id: "other's" });
      await opened.close();
      expect(existsSync(join(folder, "PG_VERSION"))).toBe(true);
      // The migrations ran on the copy: the cluster's folder has no table of the store's.
      const fresh = await openPglite({ dataDir: join(other, "..", "fresh"), schema, migrationsFolder });
      try {
        expect(await fresh.db.select().from(items)).toEqual([]);
      } finally {
        await fresh.close();
      }
    } finally {
      rmSync(join(other, ".."), { recursive: true, force: true });
    }
  });
});

describe(`the embedded store in memory (docs/performance.md, "The unit tests' time")`, () => {
  it("starts from the empty cluster kept in the user's cache folder, which no open changes; each open is a database of its own", {
    timeout: 3 * testBudgets.pgliteOpenMs,
  }, async () => {
    const first = await openPglite({ schema, migrationsFolder });
    const made = statSync(emptyClusterFile()).mtimeMs;
    try {
      await first.db.insert(items).values({ id: "first's" });
    } finally {
      await first.close();
    }
    const next = await openPglite({ schema, migrationsFolder });
    try {
      expect(await next.db.select().from(items)).toEqual([]);
    } finally {
      await next.close();
    }
    expect(statSync(emptyClusterFile()).mtimeMs).toBe(made);
  });
});

describe(`the embedded store's memory settings (docs/performance.md, "The embedded default's memory")`, () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), "pglite-test-")), "store");
  afterAll(() => rmSync(join(dataDir, ".."), { recursive: true, force: true }));

  it.each([
    ["in a data folder", dataDir],
    ["in memory", undefined],
  ])(
    "%s: 1 MB of shared buffers and room for 4 connections, not PostgreSQL's 128 MB and 100",
    {
      timeout: 2 * testBudgets.pgliteOpenMs,
    },
    async (_where, folder) => {
      const opened = await openPglite({ dataDir: folder, schema, migrationsFolder });
      try {
        // PGlite's driver answers with the rows, as node-postgres does.
        const setting = async (name: string) => {
          const answer = (await opened.db.execute(sql.raw(`SHOW ${name}`))) as {
            rows: Record<string, string>[];
          };
          return answer.rows[0]?.[name];
        };
        expect(await setting("shared_buffers")).toBe("1MB");
        expect(await setting("max_connections")).toBe("4");
      } finally {
        await opened.close();
      }
    },
  );
});
