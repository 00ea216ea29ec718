export { type AccessTable, checkAccessTable } from "./access.js";
export { adminMetadata, assertAdmin, hashAdminToken } from "./admin.js";
export {
  type CallCounter,
  type CallOptions,
  type ClientOptions,
  defaultKeepaliveTimeoutMs,
  forRequest,
  keepaliveTimeMs,
  type ServiceClient,
} from "./client.js";
export { companyPolicy, defaultCompanyLimits, smsLimitsOutOfTheWay, smsSettings } from "./company-policy.js";
export { createServiceClient } from "./counted-client.js";
export { assertTimeLeft, callDeadline, withDeadline } from "./deadline.js";
export type { RequestOf, ResponseOf, ServiceDefinition, UnaryMethod } from "./definition.js";
export { clientAddressKey, eventOriginOf, traceIdKey } from "./event-origin.js";
export {
  companyLimits,
  compareUnderBudget,
  type Guess,
  type GuessBudget,
  tellingLockOuts,
} from "./guess-budget.js";
export { type AsyncService, type CallContext, type ImplementOptions, implement } from "./handlers.js";
export { checkHealth, type HealthClient, healthClient } from "./health.js";
export { type RequestOrigin, requestMetadata } from "./request-origin.js";
export {
  closingAfterStop,
  type GrpcServerOptions,
  type HostedService,
  livenessName,
  type RunningGrpcServer,
  startGrpcServer,
} from "./server.js";
export { grpcServerEnvironment, grpcServerOptionsOf } from "./server-config.js";
export {
  connectIdentity,
  connectIntrospection,
  connectSession,
  type GrpcCallSettings,
  grpcCallEnvironment,
  identityClientEnvironment,
  sessionClientEnvironment,
} from "./service-clients.js";
export { errorCodeKey, fromServiceError, toStatus, unanswered } from "./status.js";
export {
  type Caller,
  callerOf,
  callers,
  type GrpcServiceName,
  grpcServices,
  spiffeId,
} from "./tls/spiffe.js";
export { channelCredentialsOf, type GrpcTransport, serverCredentialsOf } from "./tls/transport.js";
export {
  checkTransportSettings,
  grpcTransportEnvironment,
  plaintextWarning,
  transportOf,
} from "./tls/transport-settings.js";
export { messageSchema, parseRequest } from "./validate.js";
