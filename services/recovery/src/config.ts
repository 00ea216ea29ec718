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
    MAIL_SENDER: z.enum(["dev", "smtp"]).default("dev"),
    /** Where the dev sender appends its messages. */
    MAIL_OUTBOX_FILE: z.string().min(1).default(".data/mail-outbox.jsonl"),
    SMTP_URL: env.url(["smtp:", "smtps:"]).optional(),
    MAIL_FROM: z.string().min(3).default("Access recovery <no-reply@localhost>"),
    SMTP_TIMEOUT_MS: env.positiveInt(10_000),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkRedisSettings(config, context);
    checkTransportSettings(config, context);
    if (config.MAIL_SENDER === "smtp" && !config.SMTP_URL) {
      context.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required with MAIL_SENDER=smtp" });
    }
  });
