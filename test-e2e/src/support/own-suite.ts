import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSuite, type SuiteOptions, startSuite } from "@auth/suite";

/** A suite of a test file's own (for settings the shared one must not have), on embedded stores. */
export async function startOwnSuite(
  env: SuiteOptions["env"],
): Promise<{ suite: RunningSuite; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "auth-e2e-own-"));
  const suite = await startSuite({ dataDir, logLevel: "error", env });
  return {
    suite,
    stop: async () => {
      await suite.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
