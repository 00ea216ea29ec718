import { plaintextWarning, transportOf } from "@auth/grpc-kit";
import { connectRedis, describeTarget, redisTargetOf } from "@auth/kv";
import { boundPort, createLogger, loadConfig, reportListening, stopOnSignals } from "@auth/runtime";
import { serveMetrics } from "@auth/telemetry";
import { createApp } from "./app.js";
import { closeBackends, connectBackends } from "./backends.js";
import { configSchema } from "./config.js";
import { answerUnparsableRequests } from "./http/client-errors.js";
import { CompanyCache } from "./http/company-cache.js";
import { IdempotentAnswers } from "./http/idempotency.js";
import { RateLimits } from "./http/rate-limits.js";
import { backendHealth } from "./readiness.js";

const config = loadConfig("gateway", configSchema);
const logger = createLogger("gateway", config.LOG_LEVEL);
const addresses = {
  identity: config.IDENTITY_ADDR,
  session: config.SESSION_ADDR,
  otp: config.OTP_ADDR,
  recovery: config.RECOVERY_ADDR,
  disclaimer: config.DISCLAIMER_ADDR,
};
const transport = transportOf(config);
if (transport.kind === "plaintext") logger.error(plaintextWarning);
const backends = connectBackends(addresses, config.GRPC_DEADLINE_MS, transport);
const health = backendHealth(addresses, transport);

function trustProxySetting(value: string): boolean | number | string {
  if (value === "true" || value === "false") return value === "true";
  return /^\d+$/.test(value) ? Number(value) : value;
}

const redisTarget = redisTargetOf(config);
const rateLimits = new RateLimits(
  {
    perAddressPerMinute: config.RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
    perLoginIdPerMinute: config.RATE_LIMIT_PER_LOGIN_ID_PER_MINUTE,
    ipv6PrefixLength: config.RATE_LIMIT_IPV6_PREFIX,
  },
  // A Redis that hangs must not hold every request up (two counts per request): past this the
  // count falls back to the process's own (the limiter's insurance), and the request goes on.
  redisTarget &&
    (await connectRedis(redisTarget, {
      keyPrefix: config.REDIS_KEY_PREFIX,
      commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    })),
);
logger.info({ rateLimits: describeTarget(redisTarget) }, "rate limits ready");

// The answers replayed to an Idempotency-Key (docs/decisions.md).
const answers = await IdempotentAnswers.open(redisTarget, {
  keyPrefix: config.REDIS_KEY_PREFIX,
  commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
});

const app = createApp({
  answers,
  rateLimits,
  backends,
  requestDeadlineMs: config.REQUEST_DEADLINE_MS,
  health,
  companies: new CompanyCache(config.API_KEY_CACHE_SECONDS * 1000),
  logger,
  trustProxy: trustProxySetting(config.TRUST_PROXY),
});
const server = app.listen(config.PORT, config.HOST);
const listening = new Promise<void>((resolve) => server.once("listening", resolve));
answerUnparsableRequests(server, logger);
server.on("error", (error) => {
  logger.fatal({ err: error }, "gateway cannot listen");
  process.exit(1);
});
server.headersTimeout = 10_000;
server.requestTimeout = 15_000;
server.keepAliveTimeout = 5_000;

const metricsServer =
  config.METRICS_PORT === undefined ? undefined : await serveMetrics(config.HOST, config.METRICS_PORT);
await listening;
logger.info({ host: config.HOST, port: boundPort(server) }, "gateway listening");
reportListening({ port: boundPort(server), metricsPort: metricsServer && boundPort(metricsServer) });

stopOnSignals(logger, async () => {
  metricsServer?.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  closeBackends(backends);
  health.close();
});
