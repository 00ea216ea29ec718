import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig({
  // Two files at a time: audit's tests mostly wait (relays, retries, NATS), 23 s of CPU in 37 s one
  // file at a time, 21 s with two (docs/performance.md, "The unit tests' time").
  test: { maxWorkers: 2 },
});
