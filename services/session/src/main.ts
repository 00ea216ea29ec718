import { keyValueOutboxSource, relayServiceOutbox } from "@auth/events";
import { grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { describeTarget, openKeyValueStore, redisOptionsOf, redisTargetOf, systemClock } from "@auth/kv";
import { SessionState } from "@auth/proto/session";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { introspectionService } from "./introspection.js";
import { sessionService } from "./server.js";
import { CheckBudget } from "./store/check-budget.js";
import { KnownDevices } from "./store/known-devices.js";
import { PasskeyChallenges } from "./store/passkey-challenges.js";
import { SessionStore } from "./store/session-store.js";

const config = loadConfig("session", configSchema);
const logger = createLogger("session", config.LOG_LEVEL);
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
// Connecting until Redis answers; the server below serves from then on.
const kv = openKeyValueStore(redisTargetOf(config), redisOptionsOf(config, logger));
const relay = relayServiceOutbox({
  service: "session",
  source: keyValueOutboxSource(kv.store),
  config,
  logger,
  ready: kv.ready,
});
logger.info({ store: describeTarget(redisTargetOf(config)) }, "session service starting");

const sessions = new SessionStore(kv.store, systemClock, {
  of: (state) =>
    (state === SessionState.AUTHORIZED
      ? config.AUTHORIZED_TOKEN_TTL_SECONDS
      : config.PREAUTH_TOKEN_TTL_SECONDS) * 1000,
});
const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  onAnswered: relay.wake,
  services: [
    sessionService(
      {
        sessions,
        budget: new CheckBudget(kv.store, systemClock),
        challenges: new PasskeyChallenges(kv.store, sessions),
        devices: new KnownDevices(systemClock),
        adminTokenSha256: config.ADMIN_TOKEN_SHA256,
      },
      logger,
    ),
    introspectionService(sessions, config.ADMIN_TOKEN_SHA256, logger),
  ],
  ready: kv.ready,
});

shutdown.stopWith(async () => {
  await server.stop();
  await relay.stop();
  await kv.close();
});
