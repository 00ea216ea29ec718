import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig({
  // Three files at a time: the gateway's tests mostly wait (timers, stores, hashes in the services
  // they run). Alone, its files took 61 s one at a time (23 s of CPU), 29 s three at a time; one at
  // a time they were the last task of the workspaces' phase (docs/performance.md, "The unit tests' time").
  test: { maxWorkers: 3 },
});
