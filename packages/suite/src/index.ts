export { Child } from "./child.js";
export { freePort } from "./ports.js";
export {
  type ProcessName,
  type RunningSuite,
  type ServiceName,
  type SuiteOptions,
  serviceNames,
  startSuite,
} from "./suite.js";
