import { fileURLToPath } from "node:url";
import { eventFromJson } from "@auth/events";
import {
  closingAfterStop,
  grpcServerOptionsOf,
  type RunningGrpcServer,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type Database, openDatabase } from "@auth/pg";
import type { Event } from "@auth/proto/events";
import type { Logger } from "@auth/runtime";
import { configSchema } from "./config.js";
import { type DisclaimerSchema, eventOutbox, schema } from "./schema.js";
import { disclaimerService } from "./server.js";
import { DisclaimerStore } from "./store/disclaimer-store.js";

/** The events in the database's outbox, in commit order: what the relay would publish next. */
export async function recordedEvents(db: Database<DisclaimerSchema>): Promise<Event[]> {
  const rows = await db.select().from(eventOutbox).orderBy(eventOutbox.position);
  return rows.map((row) => eventFromJson(row.payload));
}

/**
 * The disclaimer service in the test's process, as start.ts builds it but over the test's own
 * database (in-memory PGlite unless given one): a real gRPC server on a free loopback port, under its access table. `env` is what the
 * process would read (its TLS_* files, ADMIN_TOKEN_SHA256). `recordedEvents` reads the events it
 * recorded.
 */
export async function startDisclaimerForTests(options: {
  env: NodeJS.ProcessEnv;
  /** A PostgreSQL database of the test's own; in-memory PGlite when absent. */
  databaseUrl?: string;
  logger: Logger;
}): Promise<RunningGrpcServer & { recordedEvents(): Promise<Event[]> }> {
  const config = configSchema.parse({ ...options.env, GRPC_PORT: "0" });
  const database = await openDatabase({
    url: options.databaseUrl,
    schema,
    migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  });
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [
      disclaimerService(new DisclaimerStore(database.db), config.ADMIN_TOKEN_SHA256, options.logger),
    ],
  });
  return {
    ...closingAfterStop(server, () => database.close()),
    recordedEvents: () => recordedEvents(database.db),
  };
}
