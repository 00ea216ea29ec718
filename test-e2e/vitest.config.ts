import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig({
  test: {
    globalSetup: ["./src/global-setup.ts"],
    setupFiles: ["./src/support/documented-answers.ts"],
    // The suite's processes share two cores with the tests: a few files at a time is enough.
    maxWorkers: 2,
  },
});
