import { type ConnectRetry, connectWithRetry, env, type Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { openPglite } from "./pglite.js";

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

function postgresPool(url: string, poolSize = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 5_000,
    // A PostgreSQL that hangs (no answer at all) must fail queries too, not hold the pool until it wakes.
    query_timeout: 6_000,
  });
  pool.on("error", () => {
    // An idle connection broke (for example PostgreSQL restarted); the pool replaces it.
  });
  pool.on("connect", (client) => {
    // The pool listens for errors of idle connections only: one that breaks while it is checked
    // out between two statements (a transaction awaiting something else: a relay's publish) would
    // throw an uncaught 'error' and end the process. Its next statement fails instead, and the
    // pool drops it as it comes back.
    client.on("error", () => {});
    countQueries(client);
  });
  return pool;
}

/** Counts every statement a pooled connection sends (docs/performance.md, "Operations per request"). */
function countQueries(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    metrics.postgresQueries.inc();
    return query(...args);
  }) as typeof client.query;
}

/** Applies the migrations on one connection of the pool; `abandon` drops that connection (and fails the run). */
async function migrate(pool: pg.Pool, migrationsFolder: string, abandon?: AbortSignal): Promise<void> {
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    // With an error the connection is closed rather than returned to the pool.
    client.release(error);
  };
  const drop = () => release(new Error("attempt abandoned"));
  abandon?.addEventListener("abort", drop, { once: true });
  try {
    abandon?.throwIfAborted();
    await client.query("SELECT pg_advisory_lock($1)", [migrationLockId]);
    await migratePg(drizzlePg(client), { migrationsFolder });
    await client.query("SELECT pg_advisory_unlock($1)", [migrationLockId]);
    release();
  } catch (error) {
    release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    abandon?.removeEventListener("abort", drop);
  }
}

async function openPostgres<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S> & { url: string },
): Promise<OpenedDatabase<S>> {
  const pool = postgresPool(options.url, options.poolSize);
  try {
    await migrate(pool, options.migrationsFolder);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db: drizzlePg(pool, { schema: options.schema }), kind: "postgres", close: () => pool.end() };
}

/** node-postgres lets the URL's (empty) password win over a separate one: it goes into the URL. */
function urlWithPassword(options: { url: string; password?: string }): string {
  const url = new URL(options.url);
  if (options.password) url.password = encodeURIComponent(options.password);
  return url.toString();
}

/**
 * Opens the database and applies its migrations, in one attempt: fails when PostgreSQL cannot be
 * reached (the migration Job, tests). A service opens it with openServiceDatabase.
 */
export function openDatabase<S extends Record<string, unknown>>(
  options: OpenDatabaseOptions<S>,
): Promise<OpenedDatabase<S>> {
  if (!options.url) return openPglite(options);
  return openPostgres({ ...options, url: urlWithPassword({ url: options.url, password: options.password }) });
}

/** The settings of a service's start on PostgreSQL (docs/operations.md, "Starting without a store"). */
export const databaseStartEnvironment = {
  /** Milliseconds one attempt to reach PostgreSQL at start-up (connect, migrate) may take before it is retried. */
  DATABASE_CONNECT_TIMEOUT_MS: env.positiveInt(15_000),
  /** The longest wait between two of those attempts (doubling from 200 ms, full jitter). */
  DATABASE_RETRY_MAX_DELAY_MS: env.positiveInt(5_000),
};

/** A service's database settings (its own DATABASE_URL and DATA_DIR, and databaseStartEnvironment's). */
export interface DatabaseSettings {
  DATABASE_URL?: string;
  DATABASE_PASSWORD?: string;
  DATA_DIR: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_RETRY_MAX_DELAY_MS: number;
}

/** What openServiceDatabase takes from a service's settings: the store, its pool and its start's retries. */
export function databaseOptionsOf(settings: DatabaseSettings) {
  return {
    url: settings.DATABASE_URL,
    password: settings.DATABASE_PASSWORD,
    dataDir: settings.DATA_DIR,
    poolSize: settings.DATABASE_POOL_SIZE,
    retry: {
      attemptTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
      maxDelayMs: settings.DATABASE_RETRY_MAX_DELAY_MS,
    } satisfies ConnectRetry,
  };
}

export interface ServiceDatabaseOptions<S extends Record<string, unknown>> extends OpenDatabaseOptions<S> {
  retry: ConnectRetry;
  logger: Logger;
}

/** A service's database, which may still be connecting. */
export interface ServiceDatabase<S extends Record<string, unknown>> extends OpenedDatabase<S> {
  /** Resolves once PostgreSQL has answered and the migrations are applied (at once on PGlite). */
  ready: Promise<void>;
}

/**
 * The database a service serves from. On PostgreSQL it returns at once and connects and migrates in
 * the background, attempt after attempt, until that succeeds: a service starts while its database is
 * down and serves once it answers. PGlite is opened and migrated before it returns.
 */
export async function openServiceDatabase<S extends Record<string, unknown>>(
  options: ServiceDatabaseOptions<S>,
): Promise<ServiceDatabase<S>> {
  if (!options.url) return { ...(await openPglite(options)), ready: Promise.resolve() };
  const url = urlWithPassword({ url: options.url, password: options.password });
  const pool = postgresPool(url, options.poolSize);
  const stop = new AbortController();
  let attempt = new AbortController();
  const ready = connectWithRetry(
    {
      // Where, never who: the URL's credentials stay out of the log.
      store: `postgres ${new URL(url).host}`,
      attempt: () => {
        attempt = new AbortController();
        return migrate(pool, options.migrationsFolder, attempt.signal);
      },
      abandon: () => attempt.abort(),
    },
    options.retry,
    options.logger,
    stop.signal,
  );
  ready.catch(() => {
    // Rejects only when closed before PostgreSQL answered: nothing is waiting for it then.
  });
  return {
    db: drizzlePg(pool, { schema: options.schema }),
    kind: "postgres",
    ready,
    close: async () => {
      stop.abort();
      attempt.abort();
      await pool.end();
    },
  };
}
