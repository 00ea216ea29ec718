import { eventsEnvironment } from "@auth/events";
import { checkTransportSettings, grpcServerEnvironment, sessionClientEnvironment } from "@auth/grpc-kit";
import { databaseStartEnvironment } from "@auth/pg";
import { env } from "@auth/runtime";
import { z } from "zod";

const hour = 3_600_000;

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50056),
    /** The audit service's own PostgreSQL database; without it, PGlite under DATA_DIR. */
    DATABASE_URL: env.url(["postgres:", "postgresql:"]).optional(),
    /** The password of the service's own role, when DATABASE_URL leaves it out (it stays a secret apart). */
    DATABASE_PASSWORD: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default(".data/audit"),
    DATABASE_POOL_SIZE: env.positiveInt(10),
    ...databaseStartEnvironment,
    /** The SHA-256 (hex) of the admin token operators present; the plain token is refused here (docs/operations.md, "The admin token"). */
    ADMIN_TOKEN_SHA256: env.adminTokenSha256(),
    ADMIN_TOKEN: env.refusedAdminToken(),
    /**
     * Where the services' relays publish the events this service reads (NATS_URL, else
     * EVENTS_FILE), and where its own relay publishes the operators' writes to it
     * (docs/decisions.md, "Security events").
     */
    ...eventsEnvironment,
    /** The durable consumer of AUTH_EVENTS the audit replicas share (with NATS_URL). */
    AUDIT_CONSUMER: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, '_' or '-'")
      .default("audit"),
    /** The session service, asked whose a token is before the user's own events are listed. */
    ...sessionClientEnvironment,
    /** 32 bytes, base64: the key that seals the webhooks' signing secrets. Kept in DATA_DIR when embedded. */
    SECRETS_KEY: env.secretsKey(),
    /** Milliseconds between two sweeps that delete the events past their company's retention. */
    RETENTION_SWEEP_MS: env.positiveInt(hour),
    /** Milliseconds a webhook's receiver has to answer one delivery before it counts as failed. */
    WEBHOOK_TIMEOUT_MS: env.positiveInt(10_000),
    /** The first retry's delay; each next one doubles, up to WEBHOOK_RETRY_MAX_MS, with jitter. */
    WEBHOOK_RETRY_BASE_MS: env.positiveInt(5_000),
    WEBHOOK_RETRY_MAX_MS: env.positiveInt(hour),
    /** How long a delivery is retried before it is dead-lettered: 26 hours, so a receiver down for a day still gets it. */
    WEBHOOK_RETRY_FOR_MS: env.positiveInt(26 * hour),
    /** Deliveries sent at once by one replica. */
    WEBHOOK_CONCURRENCY: env.positiveInt(8),
    /** Milliseconds between two looks for due deliveries when none was due. */
    WEBHOOK_POLL_MS: env.positiveInt(1_000),
    /**
     * Private, loopback or link-local addresses (CIDRs, comma separated) webhooks may reach, such
     * as an in-cluster receiver; every other such address is refused, at the connection (SSRF).
     */
    WEBHOOK_ALLOWED_CIDRS: z
      .string()
      .default("")
      .transform((list) =>
        list
          .split(",")
          .map((cidr) => cidr.trim())
          .filter((cidr) => cidr !== ""),
      ),
    /** More CAs (a PEM file) to trust for webhooks' HTTPS, beside Node's: an in-house receiver's. */
    WEBHOOK_CA_FILE: z.string().min(1).optional(),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine((config, context) => {
    checkTransportSettings(config, context);
    if (config.DATABASE_URL && !config.SECRETS_KEY) {
      context.addIssue({ code: "custom", path: ["SECRETS_KEY"], message: "is required with DATABASE_URL" });
    }
  });

export type AuditConfig = z.infer<typeof configSchema>;
