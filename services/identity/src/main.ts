import { fileURLToPath } from "node:url";
import { startGrpcServer } from "@auth/grpc-kit";
import { openDatabase } from "@auth/pg";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { PasswordHasher } from "./passwords.js";
import { schema } from "./schema.js";
import { identityService } from "./server.js";
import { IdentityStore } from "./store/identity-store.js";

const config = loadConfig("identity", configSchema);
const logger = createLogger("identity", config.LOG_LEVEL);
const database = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  schema,
  migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  poolSize: config.DATABASE_POOL_SIZE,
});
logger.info({ store: database.kind }, "database open and migrated");

const hasher = new PasswordHasher({
  memoryCost: config.ARGON2_MEMORY_KIB,
  timeCost: config.ARGON2_ITERATIONS,
  parallelism: config.ARGON2_PARALLELISM,
});
const server = await startGrpcServer({
  host: config.GRPC_HOST,
  port: config.GRPC_PORT,
  logger,
  services: [identityService(new IdentityStore(database.db), hasher, logger)],
});

stopOnSignals(logger, async () => {
  await server.stop();
  await database.close();
});
