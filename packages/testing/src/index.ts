export { readTestBudgets, type TestBudgets, testBudgets, testBudgetVariables } from "./budgets.js";
export { promtoolCheck, promtoolInstalled } from "./promtool.js";
export { type TcpGate, tcpGate } from "./tcp-gate.js";
