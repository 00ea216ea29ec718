import { defineTestConfig } from "@auth/testing/vitest";
import { configDefaults } from "vitest/config";

/** Files that load the whole machine (stress-ng) and start suites of their own: they run alone, after the others. */
const loadingTheMachine = ["src/slow-replica.test.ts"];

export default defineTestConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "e2e",
          exclude: [...configDefaults.exclude, ...loadingTheMachine],
          globalSetup: ["./src/global-setup.ts"],
          setupFiles: ["./src/support/documented-answers.ts"],
          // The suite's processes share two cores with the tests: a few files at a time is enough.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: "loaded machine",
          include: loadingTheMachine,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
