import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, openAsBlob, readFileSync, renameSync, rmSync } from "node:fs";
import { findPackageJSON } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
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

/** Where the empty cluster of the installed PGlite is kept: the user's cache folder. */
export function emptyClusterFile(): string {
  const manifest = findPackageJSON("@electric-sql/pglite", import.meta.url);
  if (!manifest) throw new Error("@electric-sql/pglite has no package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "auth-suite", `pglite-${version}-empty-cluster.tar`);
}

/**
 * Runs `script` (an ES module, given PGlite's URL and then `args` in process.argv) in a node process
 * of its own, which exits once done: what PGlite touches making a database (initdb runs on a second
 * instance of PGlite; a cluster's files pass through memory) stays out of the service's process.
 */
async function apart(script: string, ...args: string[]): Promise<void> {
  await promisify(execFile)(process.execPath, [
    ...pgliteNodeArgs,
    "--input-type=module",
    "-e",
    `const { PGlite } = await import(process.argv[1]); const fs = await import("node:fs"); ${script}`,
    import.meta.resolve("@electric-sql/pglite"),
    ...args,
  ]);
}

/**
 * The empty cluster every new database starts from, in memory (the tests' stores) or as a data
 * folder to copy (npm start's first start): made by initdb once per PGlite version and user, then loaded
 * instead of running initdb again (docs/performance.md, "The unit tests' time"). Written under a
 * name of its own and renamed, so that processes making it at once never read half of one.
 */
async function emptyCluster(): Promise<string> {
  const file = emptyClusterFile();
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    await apart(
      `const [file, made] = process.argv.slice(2);
       const pglite = await PGlite.create();
       fs.writeFileSync(made, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
       await pglite.close();
       fs.renameSync(made, file);`,
      file,
      `${file}.${process.pid}.${Date.now()}`,
    );
  }
  return file;
}

/** Where the empty cluster is kept as a data folder, beside its file. */
export function emptyClusterFolder(): string {
  return emptyClusterFile().replace(/\.tar$/, "");
}

/**
 * A new data folder is a copy of the empty cluster's folder (40 ms), which is made from the file once
 * per PGlite version and user: loading the file into a folder took a process of its own about 2.6 s
 * of CPU (docs/performance.md, "New data folders copied"). Made under a name of its own and renamed,
 * as the file is; a process that finds another's folder in place throws its own away.
 */
async function makeDataDir(dataDir: string): Promise<void> {
  const folder = emptyClusterFolder();
  if (!existsSync(join(folder, "PG_VERSION"))) {
    const made = `${folder}.${process.pid}.${Date.now()}`;
    await apart(
      `const [cluster, dataDir] = process.argv.slice(2);
       await (await PGlite.create(dataDir, { loadDataDir: await fs.openAsBlob(cluster) })).close();`,
      await emptyCluster(),
      made,
    );
    try {
      renameSync(made, folder);
    } catch (error) {
      if (!existsSync(join(folder, "PG_VERSION"))) throw error;
      rmSync(made, { recursive: true, force: true });
    }
  }
  cpSync(folder, dataDir, { recursive: true });
}

/** PGlite in `dataDir` (in memory when absent), migrated. */
export async function openPglite<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S>,
): Promise<OpenedDatabase<S>> {
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    if (!existsSync(join(options.dataDir, "PG_VERSION"))) await makeDataDir(options.dataDir);
  }
  // Loaded only for the embedded default: a process on real PostgreSQL never carries PGlite.
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  // The options as one object: PGlite's constructor drops its second argument when the first is
  // not a string, and an in-memory store then ran initdb and PostgreSQL's default memory settings.
  const client = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.dataDir ? undefined : await openAsBlob(await emptyCluster()),
    startParams: [...PGlite.defaultStartParams, ...memorySettings.flatMap((setting) => ["-c", setting])],
  });
  const db = drizzle(client, { schema: options.schema });
  await migrate(db, { migrationsFolder: options.migrationsFolder });
  return { db, kind: "pglite", close: () => client.close() };
}
