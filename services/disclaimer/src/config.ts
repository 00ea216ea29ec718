import { eventsEnvironment } from "@auth/events";
import { checkTransportSettings, grpcServerEnvironment } from "@auth/grpc-kit";
import { databaseStartEnvironment } from "@auth/pg";
import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50055),
    /** The disclaimer service's own PostgreSQL database; without it, PGlite under DATA_DIR. */
    DATABASE_URL: env.url(["postgres:", "postgresql:"]).optional(),
    /** The password of the service's own role, when DATABASE_URL leaves it out (it stays a secret apart). */
    DATABASE_PASSWORD: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default(".data/disclaimer"),
    DATABASE_POOL_SIZE: env.positiveInt(10),
    ...databaseStartEnvironment,
    /** The SHA-256 (hex) of the admin token operators present; the plain token is refused here (docs/operations.md, "The admin token"). */
    ADMIN_TOKEN_SHA256: env.adminTokenSha256(),
    ADMIN_TOKEN: env.refusedAdminToken(),
    /** Where the relay publishes the service's security events (docs/decisions.md, "Security events"). */
    ...eventsEnvironment,
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine(checkTransportSettings);
