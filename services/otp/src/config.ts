import { checkDeliverySettings, smsEnvironment } from "@auth/delivery";
import { eventsEnvironment } from "@auth/events";
import { checkTransportSettings, grpcServerEnvironment, identityClientEnvironment } from "@auth/grpc-kit";
import { checkRedisSettings, redisEnvironment, redisTargetOf } from "@auth/kv";
import { env } from "@auth/runtime";
import { z } from "zod";
import { designRules } from "./otps.js";

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50053),
    ...identityClientEnvironment,
    /** Redis (standalone, Cluster or Sentinel); without any, state lives in the process (the embedded default). */
    ...redisEnvironment,
    REDIS_KEY_PREFIX: z.string().default("auth:otp:"),
    /** Key of the HMAC that OTPs are stored under; every replica needs the same one. */
    OTP_HASH_SECRET: z.string().min(32, "must have at least 32 characters").optional(),
    /** The OTP rules (docs/api-contract.md, "One-time passwords"); tests shorten them. */
    OTP_LIFETIME_SECONDS: env.positiveInt(designRules.lifetimeMs / 1000),
    OTP_RESEND_COOLDOWN_SECONDS: env.positiveInt(designRules.cooldownMs / 1000),
    OTP_SENDS_PER_SESSION: env.positiveInt(designRules.sendsPerSession),
    OTP_SENDS_PER_USER_PER_HOUR: env.positiveInt(designRules.sendsPerUserPerHour),
    ...smsEnvironment,
    /** Where the relay publishes the service's security events (docs/decisions.md, "Security events"). */
    ...eventsEnvironment,
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
    if (redisTargetOf(config) && !config.OTP_HASH_SECRET) {
      context.addIssue({ code: "custom", path: ["OTP_HASH_SECRET"], message: "is required with Redis" });
    }
    checkDeliverySettings(config, context);
  });
