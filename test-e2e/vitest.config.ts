import { defineTestConfig } from "@auth/testing/vitest";
import { configDefaults } from "vitest/config";

/**
 * Files that compare times within their run, on suites of their own: npm test runs them after
 * everything else, so that no other workspace's tests run beside them (docs/performance.md, "Where
 * the end-to-end tests' time goes").
 */
const timing = ["src/burst-isolation.test.ts", "src/hung-replica.test.ts"];
/** Files that load the whole machine (stress-ng) and start suites of their own: they run alone, last. */
const loadingTheMachine = ["src/slow-replica.test.ts"];

export default defineTestConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "e2e",
          exclude: [...configDefaults.exclude, ...timing, ...loadingTheMachine],
          globalSetup: ["./src/global-setup.ts"],
          setupFiles: ["./src/support/documented-answers.ts"],
          // The suite's processes share two cores with the tests: a few files at a time is enough.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: "timing",
          include: timing,
          // Their answers are checked against the OpenAPI document the shared suite's gateway serves.
          globalSetup: ["./src/global-setup.ts"],
          setupFiles: ["./src/support/documented-answers.ts"],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "loaded machine",
          include: loadingTheMachine,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
