import { randomBytes } from "node:crypto";
import pg from "pg";
import type { OpenDatabaseOptions, OpenedDatabase } from "./database.js";

export { missingMigrations } from "./migrations.js";

export interface DatabaseKind {
  name: string;
  /** Opens a fresh, migrated database; its close() also drops it. */
  open<S extends Record<string, unknown>>(
    options: Omit<OpenDatabaseOptions<S>, "url" | "dataDir">,
  ): Promise<OpenedDatabase<S>>;
}

/** Creates an empty database on the server of `adminUrl`; returns its URL and how to drop it. */
export async function createTestDatabase(
  adminUrl: string,
  prefix = "test",
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * The database kinds a contract suite runs against: PGlite in memory always, and real PostgreSQL
 * when TEST_DATABASE_URL is set (as CI sets it), in a database of its own per suite.
 */
export function databaseKinds(): DatabaseKind[] {
  // Drizzle and telemetry load at the first open: the e2e suites take createTestDatabase alone.
  const openDatabase: typeof import("./database.js").openDatabase = async (options) =>
    (await import("./database.js")).openDatabase(options);
  const kinds: DatabaseKind[] = [{ name: "PGlite", open: (options) => openDatabase(options) }];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    kinds.push({
      name: "PostgreSQL",
      open: async (options) => {
        const database = await createTestDatabase(adminUrl);
        const opened = await openDatabase({ ...options, url: database.url });
        return {
          ...opened,
          close: async () => {
            await opened.close();
            await database.drop();
          },
        };
      },
    });
  }
  return kinds;
}
