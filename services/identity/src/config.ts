import { env } from "@auth/runtime";
import { z } from "zod";
import { owaspMinimum } from "./passwords.js";

export const configSchema = z.object({
  GRPC_HOST: env.host("127.0.0.1"),
  GRPC_PORT: env.port(50051),
  /** The identity service's own PostgreSQL database; without it, PGlite under DATA_DIR. */
  DATABASE_URL: env.url(["postgres:", "postgresql:"]).optional(),
  DATA_DIR: z.string().min(1).default(".data/identity"),
  DATABASE_POOL_SIZE: env.positiveInt(10),
  ARGON2_MEMORY_KIB: env
    .positiveInt(owaspMinimum.memoryCost)
    .pipe(z.number().min(owaspMinimum.memoryCost, `must be at least ${owaspMinimum.memoryCost}`)),
  ARGON2_ITERATIONS: env
    .positiveInt(owaspMinimum.timeCost)
    .pipe(z.number().min(owaspMinimum.timeCost, `must be at least ${owaspMinimum.timeCost}`)),
  ARGON2_PARALLELISM: env.positiveInt(owaspMinimum.parallelism),
  LOG_LEVEL: env.logLevel(),
});
