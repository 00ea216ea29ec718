import { fileURLToPath } from "node:url";
import {
  deploymentMailSender,
  deploymentSmsSender,
  smsHttpDefaultsOf,
  warnOfDevSenders,
} from "@auth/delivery";
import { relayServiceOutbox } from "@auth/events";
import { pgOutboxSource } from "@auth/events/pg";
import { connectSession, grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { databaseOptionsOf, openServiceDatabase } from "@auth/pg";
import { createLogger, loadConfig, SecretBox, secretsKeyOf, stopOnSignals, TtlCache } from "@auth/runtime";
import { captchaCheck } from "./captcha/captcha-check.js";
import { configSchema } from "./config.js";
import { OAuthExchange } from "./oauth/exchange.js";
import { PasswordHasher } from "./passwords.js";
import { schema } from "./schema.js";
import { identityService } from "./server.js";
import { IdentityStore } from "./store/identity-store.js";

const config = loadConfig("identity", configSchema);
const logger = createLogger("identity", config.LOG_LEVEL);
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
warnOfDevSenders(config, logger);
// PGlite is open here; PostgreSQL connects and migrates until it answers, and the server below serves from then on.
const database = await openServiceDatabase({
  ...databaseOptionsOf(config),
  schema,
  migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
  logger,
});
logger.info({ store: database.kind }, "database opened");
const relay = relayServiceOutbox({
  service: "identity",
  source: pgOutboxSource(database.db),
  config,
  logger,
  ready: database.ready,
});

const hasher = new PasswordHasher({
  memoryCost: config.ARGON2_MEMORY_KIB,
  timeCost: config.ARGON2_ITERATIONS,
  parallelism: config.ARGON2_PARALLELISM,
});
const oauth = new OAuthExchange({
  allowInsecureHttp: config.OAUTH_ALLOW_INSECURE_HTTP,
  timeoutSeconds: config.OAUTH_TIMEOUT_SECONDS,
  cacheMs: 10 * 60_000,
});
// Connects when first called: the session service, which calls identity too, may start later.
const session = connectSession(config);
const service = identityService(
  {
    store: new IdentityStore(database.db),
    hasher,
    secrets: new SecretBox(secretsKeyOf(config.SECRETS_KEY, config.DATA_DIR)),
    oauth,
    captcha: captchaCheck({
      allowDev: config.ALLOW_DEV_CAPTCHA,
      timeoutMs: config.CAPTCHA_TIMEOUT_MS,
      logger,
    }),
    session,
    adminTokenSha256: config.ADMIN_TOKEN_SHA256,
    companies: new TtlCache(config.COMPANY_CACHE_SECONDS * 1000),
    loginIdSubjects: new TtlCache(config.LOGIN_ID_CACHE_SECONDS * 1000),
    notices: {
      mail: deploymentMailSender(config),
      sms: deploymentSmsSender(config),
      smtpTimeoutMs: config.SMTP_TIMEOUT_MS,
      smsHttp: smsHttpDefaultsOf(config),
    },
  },
  logger,
);
const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  onAnswered: relay.wake,
  services: [service],
  ready: database.ready,
});

shutdown.stopWith(async () => {
  await server.stop();
  await service.noticesSent();
  session.close();
  await relay.stop();
  await database.close();
});
