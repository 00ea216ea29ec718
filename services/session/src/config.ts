import { checkRedisSettings, redisEnvironment } from "@auth/kv";
import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z
  .object({
    GRPC_HOST: env.host("127.0.0.1"),
    GRPC_PORT: env.port(50052),
    /** Where GET /metrics answers (Prometheus); off when unset. */
    METRICS_PORT: env.optionalPort(),
    /** Redis (standalone, Cluster or Sentinel); without any, state lives in the process (the embedded default). */
    ...redisEnvironment,
    REDIS_KEY_PREFIX: z.string().default("auth:session:"),
    PREAUTH_TOKEN_TTL_SECONDS: env.positiveInt(15 * 60),
    AUTHORIZED_TOKEN_TTL_SECONDS: env.positiveInt(24 * 60 * 60),
    ADMIN_TOKEN: env.adminToken(),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine(checkRedisSettings);

export type Config = z.infer<typeof configSchema>;
