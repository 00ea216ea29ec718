import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { eventFromJson, eventJson } from "@auth/events";
import {
  closingAfterStop,
  connectIntrospection,
  grpcServerOptionsOf,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type Database, openDatabase } from "@auth/pg";
import type { Event } from "@auth/proto/events";
import type { TokenIntrospectionServiceService } from "@auth/proto/introspection";
import { type Logger, SecretBox } from "@auth/runtime";
import { configSchema } from "./config.js";
import { type AuditSchema, eventOutbox, schema } from "./schema.js";
import { auditService } from "./server.js";
import { AuditStore, type StoreOutcome } from "./store/audit-store.js";
import { webhooksOf } from "./webhooks/webhooks-of.js";

/** The events in the database's outbox, in commit order: what the relay would publish next. */
export async function recordedEvents(db: Database<AuditSchema>): Promise<Event[]> {
  const rows = await db.select().from(eventOutbox).orderBy(eventOutbox.position);
  return rows.map((row) => eventFromJson(row.payload));
}

export interface AuditForTests extends RunningGrpcServer {
  /** The events the service recorded itself (the operators' writes), in commit order. */
  recordedEvents(): Promise<Event[]>;
  /** Stores the events as if the stream had carried them: what its feed does. */
  storeEvents(events: readonly Event[]): Promise<StoreOutcome>;
}

/**
 * The audit service in the test's process, as start.ts builds it but over the test's own database
 * (in-memory PGlite unless given one) and without a feed: a real gRPC server on a free loopback
 * port, under its access table. `env` is what the process would read (its TLS_* files,
 * ADMIN_TOKEN_SHA256, SESSION_ADDR); `introspection` replaces the session service's client made
 * from it. The test gives it events with `storeEvents`.
 */
export async function startAuditForTests(options: {
  env: NodeJS.ProcessEnv;
  /** A PostgreSQL database of the test's own; in-memory PGlite when absent. */
  databaseUrl?: string;
  logger: Logger;
  introspection?: ServiceClient<typeof TokenIntrospectionServiceService>;
}): Promise<AuditForTests> {
  const config = configSchema.parse({ ...options.env, GRPC_PORT: "0" });
  const database = await openDatabase({
    url: options.databaseUrl,
    schema,
    migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  });
  const auditStore = new AuditStore(database.db, {
    retryForMs: config.WEBHOOK_RETRY_FOR_MS,
    logger: options.logger,
  });
  const introspection = options.introspection ?? connectIntrospection(config);
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [
      auditService({
        adminTokenSha256: config.ADMIN_TOKEN_SHA256,
        logger: options.logger,
        auditStore,
        introspection,
        ...webhooksOf(database.db, config, new SecretBox(randomBytes(32))),
      }),
    ],
  });
  return {
    ...closingAfterStop(server, async () => {
      if (!options.introspection) introspection.close();
      await database.close();
    }),
    recordedEvents: () => recordedEvents(database.db),
    storeEvents: (events) => auditStore.storeEvents(events.map(eventJson)),
  };
}
