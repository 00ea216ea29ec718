export { readTestBudgets, type TestBudgets, testBudgets, testBudgetVariables } from "./budgets.js";
