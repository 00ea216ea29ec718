import { z } from "zod";

/**
 * How long the tests wait, in one place. CI runs on a shared 2-core machine whose speed moves 3×
 * in a day and which other work may load fully, so each budget is many times what an idle machine
 * needs. A test that must wait waits for the event itself (readiness, health, a log line); these
 * only bound how long. Each can be raised from the environment for a slower machine.
 */
const budgetSchema = z.object({
  /** One test (vitest's testTimeout). */
  TEST_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** One hook, such as a beforeAll that starts a suite of processes (vitest's hookTimeout). */
  TEST_HOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  /** Opening and migrating an embedded PGlite database (its WebAssembly compiles on each open). */
  TEST_PGLITE_OPEN_MS: z.coerce.number().int().positive().default(90_000),
  /** The processes of a suite becoming ready (their health checks answer SERVING). */
  TEST_SUITE_START_MS: z.coerce.number().int().positive().default(180_000),
});

export const testBudgetVariables = Object.keys(budgetSchema.shape);

/** The budgets of `env`; a value that is not a positive number of milliseconds is named in the error. */
export function readTestBudgets(env: NodeJS.ProcessEnv) {
  const result = budgetSchema.safeParse(env);
  if (!result.success) {
    const names = result.error.issues.map((issue) => issue.path.join("."));
    throw new Error(`${names.join(", ")}: expected a positive whole number of milliseconds`);
  }
  const budgets = result.data;
  return {
    testMs: budgets.TEST_TIMEOUT_MS,
    // A hook that starts a suite outlasts the suite's own wait, whose error names the process that hung.
    hookMs: Math.max(budgets.TEST_HOOK_TIMEOUT_MS, budgets.TEST_SUITE_START_MS + 60_000),
    pgliteOpenMs: budgets.TEST_PGLITE_OPEN_MS,
    suiteStartMs: budgets.TEST_SUITE_START_MS,
  };
}

export type TestBudgets = ReturnType<typeof readTestBudgets>;

export const testBudgets: TestBudgets = readTestBudgets(process.env);
