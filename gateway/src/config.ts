import { checkTransportSettings, grpcCallEnvironment, grpcTransportEnvironment } from "@auth/grpc-kit";
import { checkRedisSettings, redisEnvironment } from "@auth/kv";
import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z
  .object({
    HOST: env.host("127.0.0.1"),
    PORT: env.port(8080),
    /** Where GET /metrics answers (Prometheus); off when unset. */
    METRICS_PORT: env.optionalPort(),
    IDENTITY_ADDR: env.address("127.0.0.1:50051"),
    SESSION_ADDR: env.address("127.0.0.1:50052"),
    OTP_ADDR: env.address("127.0.0.1:50053"),
    RECOVERY_ADDR: env.address("127.0.0.1:50054"),
    DISCLAIMER_ADDR: env.address("127.0.0.1:50055"),
    /** The deadline of a call to a service (then the gateway answers service.unavailable), and its keepalive. */
    ...grpcCallEnvironment,
    /**
     * Milliseconds a whole request may take: every call it makes gets at most what is left, so a
     * request of several calls answers service.unavailable in time too.
     */
    REQUEST_DEADLINE_MS: env.positiveInt(5_000),
    /** Seconds the company of an API key is kept (revocations, suspensions and policy changes wait this long); 0 keeps nothing. */
    API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /** Express's `trust proxy`: which proxies' X-Forwarded-For to believe for the client address. */
    TRUST_PROXY: z.string().default("loopback"),
    /** How the gateway calls the services: mutual TLS with its certificate (spiffe://auth-suite/gateway). */
    ...grpcTransportEnvironment,
    /** Redis for the rate limits (standalone, Cluster or Sentinel), so that they hold across replicas; in the process without. */
    ...redisEnvironment,
    REDIS_KEY_PREFIX: z.string().default("auth:gateway:"),
    /** Requests per minute to the endpoints that take secrets or send messages; a company may set its own. */
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: env.positiveInt(120),
    RATE_LIMIT_PER_LOGIN_ID_PER_MINUTE: env.positiveInt(30),
    /**
     * The fewest gateway replicas that share the rate limits; more are found in Redis. While Redis is
     * away each replica allows its share of a limit (the limit divided by the replicas).
     */
    RATE_LIMIT_GATEWAY_REPLICAS: env.positiveInt(1),
    /** How many leading bits of an IPv6 address the per-address limit counts as one client (IPv4: the address). */
    RATE_LIMIT_IPV6_PREFIX: z.coerce
      .number({ error: "expected a prefix length from 1 to 128" })
      .int("expected a prefix length from 1 to 128")
      .min(1, "expected a prefix length from 1 to 128")
      .max(128, "expected a prefix length from 1 to 128")
      .default(64),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
  });

export type Config = z.infer<typeof configSchema>;
