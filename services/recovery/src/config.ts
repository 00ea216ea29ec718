import { checkDeliverySettings, mailEnvironment } from "@auth/delivery";
import { eventsEnvironment } from "@auth/events";
import { checkTransportSettings, grpcServerEnvironment, identityClientEnvironment } from "@auth/grpc-kit";
import { checkRedisSettings, redisEnvironment } from "@auth/kv";
import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50054),
    ...identityClientEnvironment,
    /** Redis (standalone, Cluster or Sentinel); without any, state lives in the process (the embedded default). */
    ...redisEnvironment,
    REDIS_KEY_PREFIX: z.string().default("auth:recovery:"),
    ...mailEnvironment,
    /** Where the relay publishes the service's security events (docs/decisions.md, "Security events"). */
    ...eventsEnvironment,
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
    checkDeliverySettings(config, context);
  });
