import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeys } from "@auth/kv/testing";
import { createTestDatabase } from "@auth/pg/testing";
import { testBudgets } from "@auth/testing";
import { suiteOptionsFromEnvironment } from "./stores.js";
import { type RunningSuite, type SuiteOptions, startSuite } from "./suite.js";

export interface OwnSuiteOptions extends Omit<SuiteOptions, "dataDir"> {
  /**
   * On the embedded stores even when TEST_DATABASE_URL and TEST_REDIS_URL name real ones: all of them
   * (a test of the embedded stores themselves), or Redis alone (what the processes keep in memory).
   */
  embeddedStores?: "all" | "Redis";
}

/**
 * What the e2e suites' processes run with on top of their own settings: a Redis command or a call
 * to another service on a loaded machine may take seconds (a burst of 50 logins on a cold suite,
 * while other files run). These suites test flows, not store faults or deadlines (faults.test.ts,
 * isolated.test.ts and hung-replica.test.ts do, with their own settings). Their keepalive is
 * patient too: a CI machine running every test file at once goes past the 20× its cores, and a
 * disk its builds saturate holds PGlite's event loops, where the product's 4 s is not meant to hold
 * (docs/operations.md, "A replica that hangs"); hung-replica and slow-replica measure the product's.
 */
export function patientWithStores(env: SuiteOptions["env"] = {}): SuiteOptions["env"] {
  const calls = { GRPC_DEADLINE_MS: "20000", GRPC_KEEPALIVE_TIMEOUT_MS: "20000" };
  const patient = { REDIS_COMMAND_TIMEOUT_MS: "10000", ...calls };
  return {
    ...env,
    identity: { ...calls, ...env.identity },
    audit: { ...calls, ...env.audit },
    session: { ...patient, ...env.session },
    otp: { ...patient, ...env.otp },
    recovery: { ...patient, ...env.recovery },
    gateway: { ...patient, REQUEST_DEADLINE_MS: "30000", ...env.gateway },
  };
}

/**
 * A suite of a test file's own (for settings the shared one must not have), on the stores the
 * environment names (fresh databases and a key prefix of its own) unless asked for the embedded
 * ones; a store given in `options` (a Redis key prefix of the test's own, say) is used instead.
 * Real stores start the suite about three times faster than embedded ones (docs/performance.md,
 * "Where the end-to-end tests' time goes").
 */
export async function startOwnSuite(
  env: SuiteOptions["env"],
  { embeddedStores, ...options }: OwnSuiteOptions = {},
): Promise<{ suite: RunningSuite; realStores: boolean; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "auth-e2e-own-"));
  const stores =
    embeddedStores === "all"
      ? { options: {}, cleanUp: async () => {} }
      : await suiteOptionsFromEnvironment(createTestDatabase, deleteKeys);
  const { redisUrl, redisKeyPrefix, ...databases } = stores.options;
  const suiteOptions: SuiteOptions = {
    dataDir,
    logLevel: "error",
    startTimeoutMs: testBudgets.suiteStartMs,
    ...(embeddedStores === "Redis" ? databases : stores.options),
    ...options,
    env: patientWithStores(env),
  };
  const suite = await startSuite(suiteOptions);
  return {
    suite,
    realStores: suiteOptions.databaseUrls !== undefined && suiteOptions.redisUrl !== undefined,
    stop: async () => {
      await suite.stop();
      await stores.cleanUp();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
