import { checkTransportSettings, grpcServerEnvironment } from "@auth/grpc-kit";
import { checkRedisSettings, redisEnvironment } from "@auth/kv";
import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50052),
    /** Redis (standalone, Cluster or Sentinel); without any, state lives in the process (the embedded default). */
    ...redisEnvironment,
    REDIS_KEY_PREFIX: z.string().default("auth:session:"),
    PREAUTH_TOKEN_TTL_SECONDS: env.positiveInt(15 * 60),
    AUTHORIZED_TOKEN_TTL_SECONDS: env.positiveInt(24 * 60 * 60),
    ADMIN_TOKEN: env.adminToken(),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
  });

export type Config = z.infer<typeof configSchema>;
