import { env } from "@auth/runtime";
import { z } from "zod";

export const configSchema = z.object({
  GRPC_HOST: env.host("127.0.0.1"),
  GRPC_PORT: env.port(50054),
  /** Without it, recovery state lives in the process (the embedded default). */
  REDIS_URL: env.url(["redis:", "rediss:"]).optional(),
  REDIS_KEY_PREFIX: z.string().default("auth:recovery:"),
  LOG_LEVEL: env.logLevel(),
});
