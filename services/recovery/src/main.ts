import { startGrpcServer } from "@auth/grpc-kit";
import { openKeyValueStore } from "@auth/kv";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { recoveryService } from "./server.js";

const config = loadConfig("recovery", configSchema);
const logger = createLogger("recovery", config.LOG_LEVEL);
const kv = await openKeyValueStore(config.REDIS_URL, config.REDIS_KEY_PREFIX);
logger.info({ store: config.REDIS_URL ? "redis" : "in-process" }, "store open");

const server = await startGrpcServer({
  host: config.GRPC_HOST,
  port: config.GRPC_PORT,
  logger,
  services: [recoveryService(logger)],
});

stopOnSignals(logger, async () => {
  await server.stop();
  await kv.close();
});
