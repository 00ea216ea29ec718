import { describe, expect, it } from "vitest";
import { readTestBudgets } from "./budgets.js";
import { failedTests, slowestFiles } from "./file-times.js";
import { failedTasks } from "./turbo-runs.js";

describe("test budgets", () => {
  it("are generous by default, sized for a loaded 2-core machine", () => {
    const budgets = readTestBudgets({});
    expect(budgets.testMs).toBeGreaterThanOrEqual(60_000);
    expect(budgets.pgliteOpenMs).toBeGreaterThanOrEqual(60_000);
    expect(budgets.suiteStartMs).toBeGreaterThanOrEqual(120_000);
  });

  it("are raised from the environment, a hook always outlasting a suite's start", () => {
    const budgets = readTestBudgets({ TEST_PGLITE_OPEN_MS: "200000", TEST_SUITE_START_MS: "600000" });
    expect(budgets.pgliteOpenMs).toBe(200_000);
    expect(budgets.suiteStartMs).toBe(600_000);
    expect(budgets.hookMs).toBeGreaterThan(600_000);
  });

  it("name a variable that is not a number of milliseconds", () => {
    expect(() => readTestBudgets({ TEST_TIMEOUT_MS: "soon" })).toThrow(/TEST_TIMEOUT_MS/);
    expect(() => readTestBudgets({ TEST_SUITE_START_MS: "0" })).toThrow(/TEST_SUITE_START_MS/);
  });
});

describe("the slowest test files", () => {
  it("are listed slowest first, with the ones that did not pass marked", () => {
    const lines = slowestFiles(
      [
        { file: "a.test.ts", ms: 1_200, state: "passed" },
        { file: "b.test.ts", ms: 95_000, state: "failed" },
        { file: "c.test.ts", ms: 300, state: "passed" },
      ],
      2,
    );
    expect(lines).toEqual(["95.0 s  b.test.ts  (failed)", " 1.2 s  a.test.ts"]);
  });
});

describe("the failed tests", () => {
  it("are listed under their file, and files with none are left out", () => {
    const lines = failedTests([
      { file: "a.test.ts", ms: 1_200, state: "passed", failures: [] },
      {
        file: "b.test.ts",
        ms: 95_000,
        state: "failed",
        failures: ["logins > locks out: expected 1 to be 2"],
      },
      { file: "c.test.ts", ms: 300, state: "passed" },
    ]);
    expect(lines).toEqual(["b.test.ts", "  logins > locks out: expected 1 to be 2"]);
  });
});

describe("the failed turbo tasks", () => {
  it("are those of every recorded run that exited with an error, with the exit code", () => {
    const lines = failedTasks([
      {
        tasks: [
          { taskId: "@auth/gateway#test", execution: { exitCode: 1 } },
          { taskId: "@auth/otp#test", execution: { exitCode: 0 } },
        ],
      },
      {
        tasks: [
          { taskId: "@auth/test-e2e#build" },
          { taskId: "@auth/test-e2e#test", execution: { exitCode: 137 } },
        ],
      },
    ]);
    expect(lines).toEqual(["@auth/gateway#test (exit 1)", "@auth/test-e2e#test (exit 137)"]);
  });
});
