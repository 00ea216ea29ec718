import { fileURLToPath } from "node:url";
import { describeNats, relayServiceOutbox } from "@auth/events";
import { pgOutboxSource } from "@auth/events/pg";
import { connectIntrospection, grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { databaseOptionsOf, openServiceDatabase } from "@auth/pg";
import { createLogger, loadConfig, SecretBox, secretsKeyOf, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { startFileFeed } from "./feed/file-feed.js";
import { startRetentionSweeper } from "./retention-sweeper.js";
import { schema } from "./schema.js";
import { auditService } from "./server.js";
import { AuditStore } from "./store/audit-store.js";
import { startDispatcher } from "./webhooks/dispatcher.js";
import { httpsSenderOf } from "./webhooks/sender.js";
import { webhooksOf } from "./webhooks/webhooks-of.js";

const config = loadConfig("audit", configSchema);
const logger = createLogger("audit", config.LOG_LEVEL);
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
// The operators' writes here are events like every service's, read back from the stream below.
const relay = relayServiceOutbox({
  service: "audit",
  source: pgOutboxSource(database.db),
  config,
  logger,
  ready: database.ready,
});
const auditStore = new AuditStore(database.db, { retryForMs: config.WEBHOOK_RETRY_FOR_MS, logger });
const webhooks = webhooksOf(
  database.db,
  config,
  new SecretBox(secretsKeyOf(config.SECRETS_KEY, config.DATA_DIR)),
);
// Apart from every request path: a receiver that is slow or down delays only its own deliveries.
const dispatcher = startDispatcher({
  store: webhooks.deliveryStore,
  sender: httpsSenderOf(config),
  config,
  logger,
  ready: database.ready,
});
// Events stored with deliveries are sent now rather than at the dispatcher's next look.
const afterStore = (outcome: { deliveries: number }) => {
  if (outcome.deliveries > 0) dispatcher.nudge();
};
// The NATS client loads only when events come from NATS (docs/performance.md, "Modules loaded at start").
const feed = config.NATS_URL
  ? (await import("./feed/nats-feed.js")).startNatsFeed({
      writer: auditStore,
      url: config.NATS_URL,
      caFile: config.NATS_CA_FILE,
      replicas: config.NATS_STREAM_REPLICAS,
      consumer: config.AUDIT_CONSUMER,
      afterStore,
      logger,
      ready: database.ready,
    })
  : startFileFeed({
      writer: auditStore,
      path: config.EVENTS_FILE,
      pollMs: config.EVENTS_POLL_MS,
      idlePollMs: config.EVENTS_IDLE_POLL_MS,
      afterStore,
      logger,
      ready: database.ready,
    });
logger.info(
  { events: config.NATS_URL ? describeNats(config.NATS_URL) : config.EVENTS_FILE },
  "security events are read from the stream",
);
const sweeper = startRetentionSweeper({
  store: auditStore,
  intervalMs: config.RETENTION_SWEEP_MS,
  logger,
  ready: database.ready,
});
const introspection = connectIntrospection(config);

const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  onAnswered: relay.wake,
  services: [
    auditService({
      adminTokenSha256: config.ADMIN_TOKEN_SHA256,
      logger,
      auditStore,
      introspection,
      ...webhooks,
    }),
  ],
  ready: database.ready,
});

shutdown.stopWith(async () => {
  await server.stop();
  introspection.close();
  await feed.stop();
  await dispatcher.stop();
  await sweeper.stop();
  await relay.stop();
  await database.close();
});
