import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { grpcServerOptionsOf, type RunningGrpcServer, startGrpcServer } from "@auth/grpc-kit";
import { openDatabase } from "@auth/pg";
import { type Logger, TtlCache } from "@auth/runtime";
import { captchaCheck } from "./captcha/captcha-check.js";
import { configSchema } from "./config.js";
import { OAuthExchange } from "./oauth/exchange.js";
import { PasswordHasher } from "./passwords.js";
import { schema } from "./schema.js";
import { SecretBox } from "./secret-box.js";
import { identityService } from "./server.js";
import { IdentityStore } from "./store/identity-store.js";

/**
 * Cheaper than the production minimum (config.ts refuses it), so that a test's logins take
 * milliseconds: the rules under test do not depend on the hash's cost.
 */
const testHashing = { memoryCost: 8_192, timeCost: 1, parallelism: 1 };

/**
 * The identity service in the test's process, as main.ts builds it but over the test's own
 * database (in-memory PGlite unless given one), with the dev captcha allowed (as the suite does) and cheap hashes: a real gRPC server
 * on a free loopback port, under its access table. `env` is what the process would read (its
 * TLS_* files, ADMIN_TOKEN).
 */
export async function startIdentityForTests(options: {
  env: NodeJS.ProcessEnv;
  /** A PostgreSQL database of the test's own; in-memory PGlite when absent. */
  databaseUrl?: string;
  logger: Logger;
}): Promise<RunningGrpcServer> {
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
      identityService(
        {
          store: new IdentityStore(database.db),
          hasher: new PasswordHasher(testHashing),
          secrets: new SecretBox(randomBytes(32)),
          oauth: new OAuthExchange({
            allowInsecureHttp: config.OAUTH_ALLOW_INSECURE_HTTP,
            timeoutSeconds: config.OAUTH_TIMEOUT_SECONDS,
            cacheMs: 0,
          }),
          captcha: captchaCheck({ allowDev: true, timeoutMs: config.CAPTCHA_TIMEOUT_MS }),
          adminToken: config.ADMIN_TOKEN,
          companies: new TtlCache(0),
        },
        options.logger,
      ),
    ],
  });
  return {
    ...server,
    stop: async (graceMs) => {
      await server.stop(graceMs);
      await database.close();
    },
  };
}
