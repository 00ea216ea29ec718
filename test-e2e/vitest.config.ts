import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./src/global-setup.ts"],
    setupFiles: ["./src/support/documented-answers.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The suite's processes share two cores with the tests: a few files at a time is enough.
    maxWorkers: 2,
  },
});
