import { checkTransportSettings, grpcServerEnvironment } from "@auth/grpc-kit";
import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z
  .object({
    ...grpcServerEnvironment(50055),
    /** The disclaimer service's own PostgreSQL database; without it, PGlite under DATA_DIR. */
    DATABASE_URL: env.url(["postgres:", "postgresql:"]).optional(),
    DATA_DIR: z.string().min(1).default(".data/disclaimer"),
    DATABASE_POOL_SIZE: env.positiveInt(10),
    ADMIN_TOKEN: env.adminToken(),
    LOG_LEVEL: env.logLevel(),
  })
  .superRefine(checkTransportSettings);
