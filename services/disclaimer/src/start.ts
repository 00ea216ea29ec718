import { fileURLToPath } from "node:url";
import { relayServiceOutbox } from "@auth/events";
import { pgOutboxSource } from "@auth/events/pg";
import { grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { databaseOptionsOf, openServiceDatabase } from "@auth/pg";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { schema } from "./schema.js";
import { disclaimerService } from "./server.js";
import { DisclaimerStore } from "./store/disclaimer-store.js";

const config = loadConfig("disclaimer", configSchema);
const logger = createLogger("disclaimer", config.LOG_LEVEL);
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
// PGlite is open here; PostgreSQL connects and migrates until it answers, and the server below serves from then on.
const database = await openServiceDatabase({
  ...databaseOptionsOf(config),
  schema,
  migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  logger,
});
logger.info({ store: database.kind }, "database opened");
const relay = relayServiceOutbox({
  service: "disclaimer",
  source: pgOutboxSource(database.db),
  config,
  logger,
  ready: database.ready,
});

const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  onAnswered: relay.wake,
  services: [disclaimerService(new DisclaimerStore(database.db), config.ADMIN_TOKEN_SHA256, logger)],
  ready: database.ready,
});

shutdown.stopWith(async () => {
  await server.stop();
  await relay.stop();
  await database.close();
});
