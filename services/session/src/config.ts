import { eventsEnvironment } from "@auth/events";
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
    /** The SHA-256 (hex) of the admin token operators present; the plain token is refused here (docs/operations.md, "The admin token"). */
    ADMIN_TOKEN_SHA256: env.adminTokenSha256(),
    ADMIN_TOKEN: env.refusedAdminToken(),
    /** Where the relay publishes the service's security events (docs/decisions.md, "Security events"). */
    ...eventsEnvironment,
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
  });

export type Config = z.infer<typeof configSchema>;
