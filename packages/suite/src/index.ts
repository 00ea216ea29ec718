export { type BoundPorts, Child } from "./child.js";
export { DataDirInUse, type DataLock, lockDataDir, lockFileName } from "./data-lock.js";
export {
  compileCacheEnvironment,
  type ProcessName,
  productionNodeArgs,
  type Replica,
  type RunningSuite,
  type ServiceName,
  type SuiteOptions,
  serviceNames,
  startSuite,
} from "./suite.js";
