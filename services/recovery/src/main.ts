import { deploymentMailSender, warnOfDevSenders } from "@auth/delivery";
import { keyValueOutboxSource, relayServiceOutbox } from "@auth/events";
import { connectIdentity, grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { describeTarget, openKeyValueStore, redisOptionsOf, redisTargetOf, systemClock } from "@auth/kv";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { recoveryService } from "./server.js";
import { RecoveryStore } from "./store/recovery-store.js";

const config = loadConfig("recovery", configSchema);
const logger = createLogger("recovery", config.LOG_LEVEL);
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
warnOfDevSenders(config, logger);
// Connecting until Redis answers; the server below serves from then on.
const kv = openKeyValueStore(redisTargetOf(config), redisOptionsOf(config, logger));
const relay = relayServiceOutbox({
  service: "recovery",
  source: keyValueOutboxSource(kv.store),
  config,
  logger,
  ready: kv.ready,
});
const mail = deploymentMailSender(config);
logger.info(
  { store: describeTarget(redisTargetOf(config)), mail: config.MAIL_SENDER },
  "recovery service starting",
);

const identity = connectIdentity(config);
const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  onAnswered: relay.wake,
  services: [
    recoveryService(
      new RecoveryStore(kv.store, systemClock),
      { identity, fallback: mail, timeoutMs: config.SMTP_TIMEOUT_MS },
      logger,
    ),
  ],
  ready: kv.ready,
});

shutdown.stopWith(async () => {
  await server.stop();
  identity.close();
  mail.close();
  await relay.stop();
  await kv.close();
});
