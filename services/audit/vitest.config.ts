import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig({
  // Two files at a time: audit's tests mostly wait (relays, retries, NATS). Alone, its files took
  // 37 s one at a time (23 s of CPU), 21 s two at a time (docs/performance.md, "The unit tests' time").
  test: { maxWorkers: 2 },
});
