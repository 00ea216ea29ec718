import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig({
  // Three files at a time: the gateway's tests mostly wait (timers, stores, hashes in the services
  // they run), 23 s of CPU in 61 s one file at a time, 29 s with three (docs/performance.md, "The
  // unit tests' time"). The gateway's tests end the workspaces' phase, which turbo starts last.
  test: { maxWorkers: 3 },
});
