import { defineTestConfig } from "@auth/testing/vitest";
import { configDefaults } from "vitest/config";

/**
 * Files that run one at a time, after the others, each with a suite of its own: one loads the whole
 * machine (stress-ng); one compares its logins' latency during a burst with theirs before it, which
 * another file's suite starting meanwhile would move (3.59× against a bound of 3× in one run).
 */
const alone = ["src/slow-replica.test.ts", "src/burst-isolation.test.ts"];

export default defineTestConfig({
  test: {
    // A process per file, unlike the workspaces' tests: in one run with the files one after another
    // in two processes, the whole took 1.3× longer (docs/performance.md, "The unit tests' time").
    isolate: true,
    projects: [
      {
        extends: true,
        test: {
          name: "e2e",
          exclude: [...configDefaults.exclude, ...alone],
          globalSetup: ["./src/global-setup.ts"],
          setupFiles: ["./src/support/documented-answers.ts"],
          // The suite's processes share two cores with the tests: a few files at a time is enough.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: "alone",
          include: alone,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
