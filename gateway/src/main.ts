import { once } from "node:events";
import { plaintextWarning, transportOf } from "@auth/grpc-kit";
import { describeTarget, openRedis, redisOptionsOf, redisTargetOf } from "@auth/kv";
import {
  boundPort,
  createLogger,
  listenOrExit,
  loadConfig,
  reportListening,
  stopOnSignals,
} from "@auth/runtime";
import { serveMetrics } from "@auth/telemetry";
import { createApp } from "./app.js";
import { closeBackends, connectBackends } from "./backends.js";
import { CompaniesWithDisclaimers } from "./companies-with-disclaimers.js";
import { configSchema } from "./config.js";
import { answerUnparsableRequests } from "./http/client-errors.js";
import { CompanyCache } from "./http/company-cache.js";
import { GatewayReplicas } from "./http/gateway-replicas.js";
import { IdempotentAnswers } from "./http/idempotency.js";
import { LoginIdTurns } from "./http/login-id-turns.js";
import { RateLimits } from "./http/rate-limits.js";
import { RedisAvailability } from "./http/redis-availability.js";
import { backendHealth } from "./readiness.js";

const config = loadConfig("gateway", configSchema);
const logger = createLogger("gateway", config.LOG_LEVEL);
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
const addresses = {
  identity: config.IDENTITY_ADDR,
  session: config.SESSION_ADDR,
  otp: config.OTP_ADDR,
  recovery: config.RECOVERY_ADDR,
  disclaimer: config.DISCLAIMER_ADDR,
  audit: config.AUDIT_ADDR,
};
const transport = transportOf(config);
if (transport.kind === "plaintext") logger.error(plaintextWarning);
const backends = connectBackends(addresses, config, transport);
const companiesWithDisclaimers = new CompaniesWithDisclaimers(
  backends.disclaimer,
  config.DISCLAIMER_COMPANIES_REFRESH_SECONDS * 1000,
  logger,
);
companiesWithDisclaimers.start();
const redisTarget = redisTargetOf(config);
// Connecting until Redis answers, while the gateway listens: meanwhile /readyz says so, and the rate
// limits count in the process as they do whenever Redis is gone (http/rate-limits.ts).
const redis = redisTarget && openRedis(redisTarget, redisOptionsOf(config, logger));
const health = backendHealth(addresses, transport, {
  rateLimitStore: redis?.ready,
  keepaliveTimeoutMs: config.GRPC_KEEPALIVE_TIMEOUT_MS,
  logger,
});

const replicas = new GatewayReplicas(config.RATE_LIMIT_GATEWAY_REPLICAS, redis?.client);
redis?.ready.then(
  () => replicas.start(),
  () => {
    // Stopped before Redis answered.
  },
);
const availability = redis && new RedisAvailability(redis.client);
const rateLimits = new RateLimits(
  {
    perAddressPerMinute: config.RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
    perLoginIdPerMinute: config.RATE_LIMIT_PER_LOGIN_ID_PER_MINUTE,
    ipv6PrefixLength: config.RATE_LIMIT_IPV6_PREFIX,
  },
  redis && availability && { redis: redis.client, availability, replicas },
);
logger.info({ rateLimits: describeTarget(redisTarget) }, "rate limits set up");

// The answers replayed to an Idempotency-Key (docs/decisions.md).
const answers = IdempotentAnswers.on(redis?.client);

const app = createApp({
  answers,
  rateLimits,
  turns: new LoginIdTurns(config.REQUESTS_AT_ONCE_PER_LOGIN_ID),
  backends,
  companiesWithDisclaimers,
  requestDeadlineMs: config.REQUEST_DEADLINE_MS,
  health,
  companies: new CompanyCache(config.API_KEY_CACHE_SECONDS * 1000),
  logger,
  trustProxy: config.TRUST_PROXY,
});
const server = app.listen(config.PORT, config.HOST);
await listenOrExit(logger, { address: `${config.HOST}:${config.PORT}`, variable: "PORT" }, () =>
  once(server, "listening"),
);
answerUnparsableRequests(server, logger);
server.headersTimeout = 10_000;
server.requestTimeout = 15_000;
server.keepAliveTimeout = 5_000;

const { METRICS_PORT: metricsPort } = config;
const metricsServer =
  metricsPort === undefined
    ? undefined
    : await listenOrExit(logger, { address: `${config.HOST}:${metricsPort}`, variable: "METRICS_PORT" }, () =>
        serveMetrics(config.HOST, metricsPort),
      );
logger.info({ host: config.HOST, port: boundPort(server) }, "gateway listening");
reportListening({ port: boundPort(server), metricsPort: metricsServer && boundPort(metricsServer) });

shutdown.stopWith(async () => {
  metricsServer?.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  companiesWithDisclaimers.stop();
  closeBackends(backends);
  health.close();
  availability?.close();
  await replicas.stop();
  await redis?.close();
});
