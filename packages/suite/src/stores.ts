import { randomBytes } from "node:crypto";
import type { SuiteOptions } from "./suite.js";

type DeleteKeys = (url: string, prefix: string) => Promise<void>;
type CreateDatabase = (adminUrl: string, prefix: string) => Promise<{ url: string; drop(): Promise<void> }>;

/**
 * Real PostgreSQL and Redis when TEST_DATABASE_URL and TEST_REDIS_URL are set (as CI sets them):
 * fresh databases and a key prefix of this run's own, removed afterwards. Embedded stores otherwise.
 */
export async function suiteOptionsFromEnvironment(
  createDatabase: CreateDatabase,
  deleteKeys: DeleteKeys,
): Promise<{
  options: Pick<SuiteOptions, "databaseUrls" | "redisUrl" | "redisKeyPrefix">;
  cleanUp(): Promise<void>;
}> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  const options: Pick<SuiteOptions, "databaseUrls" | "redisUrl" | "redisKeyPrefix"> = {};
  const drops: Array<() => Promise<void>> = [];
  if (adminUrl) {
    const identity = await createDatabase(adminUrl, "e2e_identity");
    const disclaimer = await createDatabase(adminUrl, "e2e_disclaimer");
    const audit = await createDatabase(adminUrl, "e2e_audit");
    drops.push(identity.drop, disclaimer.drop, audit.drop);
    options.databaseUrls = { identity: identity.url, disclaimer: disclaimer.url, audit: audit.url };
  }
  if (redisUrl) {
    const prefix = `e2e-${randomBytes(4).toString("hex")}:`;
    options.redisUrl = redisUrl;
    options.redisKeyPrefix = prefix;
    drops.push(() => deleteKeys(redisUrl, prefix));
  }
  return {
    options,
    cleanUp: async () => {
      for (const drop of drops) await drop();
    },
  };
}
