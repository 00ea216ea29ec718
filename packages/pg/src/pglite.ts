import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { OpenDatabaseOptions, OpenedDatabase } from "./database.js";

// The embedded store within its share of npm start's memory: docs/performance.md, "The embedded default's memory".

/**
 * PostgreSQL settings over PGlite's own. PGlite allocates and touches the whole of PostgreSQL's
 * shared memory at start, and it never shrinks: its buffers (128 MiB by default), and the slots and
 * lock tables of every backend it could have, where PGlite runs one.
 */
const memorySettings = [
  "shared_buffers=1MB",
  "max_connections=4",
  "autovacuum_worker_slots=1",
  "max_wal_senders=0",
  "max_replication_slots=0",
];

/**
 * The node flags of a process that opens PGlite: its WebAssembly compiled by V8's baseline compiler
 * only, as the optimizing tier's code for PGlite is 60-65 MiB. A command-line flag: node 24's V8
 * ignores one set once it runs (`v8.setFlagsFromString`), and its process held 490 MiB, not 215.
 */
export const pgliteNodeArgs = ["--liftoff-only"];

/** Where the PGlite package is, for a process started apart to load it. */
function pgliteUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
}

/**
 * Creates a new database folder in a process of its own (PGlite runs initdb on a second instance
 * of itself, whose memory the opening process would keep), which exits once the folder is made.
 */
async function initdbApart(dataDir: string): Promise<void> {
  const create =
    "const { PGlite } = await import(process.argv[1]); await (await PGlite.create(process.argv[2])).close();";
  await promisify(execFile)(process.execPath, [
    ...pgliteNodeArgs,
    "--input-type=module",
    "-e",
    create,
    pgliteUrl(),
    dataDir,
  ]);
}

/** PGlite in `dataDir` (in memory when absent), migrated. */
export async function openPglite<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S>,
): Promise<OpenedDatabase<S>> {
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    if (!existsSync(join(options.dataDir, "PG_VERSION"))) await initdbApart(options.dataDir);
  }
  // Loaded only for the embedded default: a process on real PostgreSQL never carries PGlite.
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const client = new PGlite(options.dataDir, {
    startParams: [...PGlite.defaultStartParams, ...memorySettings.flatMap((setting) => ["-c", setting])],
  });
  const db = drizzle(client, { schema: options.schema });
  await migrate(db, { migrationsFolder: options.migrationsFolder });
  return { db, kind: "pglite", close: () => client.close() };
}
