import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";
import { testBudgets } from "./budgets.js";
import { FileTimesReporter } from "./file-times-reporter.js";

/**
 * A workspace's vitest configuration: the shared time budgets (sized for a loaded machine), the
 * files run two at a time and the record of each file's time, with the workspace's own settings
 * on top. vitest's default on two cores is one file at a time, but most files wait on a store, a
 * child process or a hash more than they compute (docs/performance.md, "The unit tests' time").
 */
export function defineTestConfig(own: ViteUserConfig = {}): ViteUserConfig {
  return mergeConfig(
    defineConfig({
      test: {
        testTimeout: testBudgets.testMs,
        hookTimeout: testBudgets.hookMs,
        teardownTimeout: testBudgets.hookMs,
        maxWorkers: 2,
        reporters: ["default", new FileTimesReporter()],
      },
    }),
    own,
  );
}
