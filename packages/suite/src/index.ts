export { type BoundPorts, Child } from "./child.js";
export { DataDirInUse, type DataLock, lockDataDir, lockFileName } from "./data-lock.js";
export { type Relay, startRelay } from "./relay.js";
export {
  type ProcessName,
  type Replica,
  type RunningSuite,
  type ServiceName,
  type SuiteOptions,
  productionNodeArgs,
  serviceNames,
  startSuite,
} from "./suite.js";
