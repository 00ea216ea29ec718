import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";
import { testBudgets } from "./budgets.js";
import { FileTimesReporter } from "./file-times-reporter.js";

/**
 * A workspace's vitest configuration: the shared time budgets (sized for a loaded machine) and the
 * record of each file's time, with the workspace's own settings on top. A workspace runs one file
 * at a time on two cores (vitest's default): npm test runs workspaces beside each other instead
 * (docs/performance.md, "The unit tests' time").
 */
export function defineTestConfig(own: ViteUserConfig = {}): ViteUserConfig {
  return mergeConfig(
    defineConfig({
      test: {
        testTimeout: testBudgets.testMs,
        hookTimeout: testBudgets.hookMs,
        teardownTimeout: testBudgets.hookMs,
        reporters: ["default", new FileTimesReporter()],
      },
    }),
    own,
  );
}
