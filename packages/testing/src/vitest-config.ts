import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";
import { testBudgets } from "./budgets.js";
import { FileTimesReporter } from "./file-times-reporter.js";

/** The build output of every workspace (their packages resolve to it through npm's links). */
const builtWorkspaces = [
  /\/(?:packages|services|web|infra|tools)\/[^/]+\/dist\//,
  /\/(?:gateway|bench)\/dist\//,
  /\/proto\/dist\//,
];

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
        // A workspace's files run one after another in one process, which loads the workspaces'
        // modules once, not once per file (docs/performance.md, "The unit tests' time"): no test
        // may count on a module's state being new (metrics are read as differences).
        isolate: false,
        // The workspaces' built JavaScript is loaded by node as it is, as node_modules are, not
        // transformed and evaluated again through vite for every test file (docs/performance.md,
        // "The unit tests' time").
        server: { deps: { external: builtWorkspaces } },
      },
    }),
    own,
  );
}
