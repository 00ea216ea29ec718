import { createLogger, env, loadConfig } from "@auth/runtime";
import { z } from "zod";
import { openDatabase } from "./database.js";

/**
 * The body of a service's migration command (a Kubernetes Job before a rollout): applies the
 * service's migrations to DATABASE_URL, under the same lock as the replicas use, and ends.
 */
export async function migrateDatabase(
  service: string,
  schema: Record<string, unknown>,
  migrationsFolder: string,
): Promise<void> {
  const config = loadConfig(
    `${service} migrate`,
    z.object({
      DATABASE_URL: env.url(["postgres:", "postgresql:"]),
      DATABASE_PASSWORD: z.string().min(1).optional(),
      LOG_LEVEL: env.logLevel(),
    }),
  );
  const logger = createLogger(service, config.LOG_LEVEL);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    password: config.DATABASE_PASSWORD,
    schema,
    migrationsFolder,
    poolSize: 1,
  });
  await database.close();
  logger.info("migrations applied");
}
