export { adminMetadata, assertAdmin } from "./admin.js";
export { type CallOptions, type ClientOptions, createServiceClient, type ServiceClient } from "./client.js";
export type { RequestOf, ResponseOf, ServiceDefinition, UnaryMethod } from "./definition.js";
export { type AsyncService, type CallContext, type ImplementOptions, implement } from "./handlers.js";
export { checkHealth } from "./health.js";
export {
  type GrpcServerOptions,
  type HostedService,
  type RunningGrpcServer,
  startGrpcServer,
} from "./server.js";
export { errorCodeKey, fromServiceError, toStatus } from "./status.js";
export { parseRequest } from "./validate.js";
