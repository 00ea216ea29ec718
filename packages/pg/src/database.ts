import { mkdirSync } from "node:fs";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";

/** A Drizzle database, the same type on real PostgreSQL and on PGlite. */
export type Database<S extends Record<string, unknown>> = PgDatabase<PgQueryResultHKT, S>;

export interface OpenDatabaseOptions<S extends Record<string, unknown>> {
  /** postgres:// URL of the service's own database; without it, PGlite is used. */
  url?: string;
  /** The role's password, when the URL leaves it out. */
  password?: string;
  /** Where PGlite keeps its files; in memory when absent. */
  dataDir?: string;
  schema: S;
  /** The drizzle-kit migrations folder of the service. */
  migrationsFolder: string;
  /** Size of the connection pool on real PostgreSQL. */
  poolSize?: number;
}

export interface OpenedDatabase<S extends Record<string, unknown>> {
  db: Database<S>;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

// Replicas starting together must not run the same migration twice: one holds this lock.
const migrationLockId = 7_320_118;

async function openPostgres<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S> & { url: string },
): Promise<OpenedDatabase<S>> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 5_000,
    // A PostgreSQL that hangs (no answer at all) must fail queries too, not hold the pool until it wakes.
    query_timeout: 6_000,
  });
  pool.on("error", () => {
    // An idle connection broke (for example PostgreSQL restarted); the pool replaces it.
  });
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [migrationLockId]);
    await migratePg(drizzlePg(client), { migrationsFolder: options.migrationsFolder });
    await client.query("SELECT pg_advisory_unlock($1)", [migrationLockId]);
  } finally {
    client.release();
  }
  return { db: drizzlePg(pool, { schema: options.schema }), kind: "postgres", close: () => pool.end() };
}

async function openPglite<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S>,
): Promise<OpenedDatabase<S>> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // Loaded only for the embedded default: a process on real PostgreSQL never carries PGlite.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const client = new PGlite(options.dataDir);
  const db = drizzlePglite(client, { schema: options.schema });
  await migratePglite(db, { migrationsFolder: options.migrationsFolder });
  return { db, kind: "pglite", close: () => client.close() };
}

/** Opens the service's database and applies its migrations. */
export function openDatabase<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S>,
): Promise<OpenedDatabase<S>> {
  if (!options.url) return openPglite(options);
  // node-postgres lets the URL's (empty) password win over a separate one: it goes into the URL.
  const url = new URL(options.url);
  if (options.password) url.password = encodeURIComponent(options.password);
  return openPostgres({ ...options, url: url.toString() });
}
