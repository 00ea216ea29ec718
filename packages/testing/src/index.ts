export { readTestBudgets, type TestBudgets, testBudgets, testBudgetVariables } from "./budgets.js";
export { type ModuleRecorder, moduleRecorder } from "./module-recorder.js";
export { promtoolCheck, promtoolInstalled } from "./promtool.js";
export { type TcpGate, tcpGate } from "./tcp-gate.js";
