import { checkDeliverySettings, mailEnvironment, smsEnvironment } from "@auth/delivery";
import { eventsEnvironment } from "@auth/events";
import { checkTransportSettings, grpcServerEnvironment, sessionClientEnvironment } from "@auth/grpc-kit";
import { databaseStartEnvironment } from "@auth/pg";
import { env } from "@auth/runtime";
import { z } from "zod";
import { owaspMinimum } from "./passwords.js";

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50051),
    ...sessionClientEnvironment,
    /** The identity service's own PostgreSQL database; without it, PGlite under DATA_DIR. */
    DATABASE_URL: env.url(["postgres:", "postgresql:"]).optional(),
    /** The password of the service's own role, when DATABASE_URL leaves it out (it stays a secret apart). */
    DATABASE_PASSWORD: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default(".data/identity"),
    DATABASE_POOL_SIZE: env.positiveInt(10),
    ...databaseStartEnvironment,
    ARGON2_MEMORY_KIB: env
      .positiveInt(owaspMinimum.memoryCost)
      .pipe(z.number().min(owaspMinimum.memoryCost, `must be at least ${owaspMinimum.memoryCost}`)),
    ARGON2_ITERATIONS: env
      .positiveInt(owaspMinimum.timeCost)
      .pipe(z.number().min(owaspMinimum.timeCost, `must be at least ${owaspMinimum.timeCost}`)),
    ARGON2_PARALLELISM: env.positiveInt(owaspMinimum.parallelism),
    /** 32 bytes, base64 or base64url: the key that seals OAuth client secrets and the secrets of company policies. Kept in DATA_DIR when embedded. */
    SECRETS_KEY: env.secretsKey(),
    /** Lets OAuth providers be reached over plain HTTP: for tests on loopback only. */
    OAUTH_ALLOW_INSECURE_HTTP: z.stringbool().default(false),
    /** Lets companies use the dev captcha provider, which accepts a fixed response: never in production. */
    ALLOW_DEV_CAPTCHA: z.stringbool().default(false),
    /** Milliseconds a captcha provider's siteverify may take. */
    CAPTCHA_TIMEOUT_MS: env.positiveInt(3_000),
    /** Seconds each request to an OAuth provider may take. */
    OAUTH_TIMEOUT_SECONDS: env.positiveInt(5),
    /** The SHA-256 (hex) of the admin token operators present; the plain token is refused here (docs/operations.md, "The admin token"). */
    ADMIN_TOKEN_SHA256: env.adminTokenSha256(),
    ADMIN_TOKEN: env.refusedAdminToken(),
    /** The deployment's senders of notices to users, for companies without their own (docs/security.md, "Notifications"). */
    ...mailEnvironment,
    ...smsEnvironment,
    /** Seconds a company read by id is kept; changes made through another replica wait this long. */
    COMPANY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /**
     * Seconds the budget a login ID spends (its user's, or its own) is remembered, so that the
     * guesses of a burst the budget refuses read no row; a login ID given to another user meets the
     * former user's lock-out and captcha this long (docs/security.md, "Bursts").
     */
    LOGIN_ID_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    /** Where the relay publishes the service's security events (docs/decisions.md, "Security events"). */
    ...eventsEnvironment,
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkTransportSettings(config, context);
    checkDeliverySettings(config, context);
    if (config.DATABASE_URL && !config.SECRETS_KEY) {
      context.addIssue({ code: "custom", path: ["SECRETS_KEY"], message: "is required with DATABASE_URL" });
    }
  });
