import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig({
  // Two files at a time: authctl's tests mostly wait on the authctl processes they start, and its
  // longest file (authctl.test.ts, one suite's worth of calls in order) was the last task of the
  // workspaces' phase (docs/performance.md, "authctl's test file").
  test: { maxWorkers: 2 },
});
