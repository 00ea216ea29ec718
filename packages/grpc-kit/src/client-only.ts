// `@auth/grpc-kit/client`: what a command-line client of the services or a launcher of their
// processes needs, without the server side the index loads (metrics, tracing, reflection, the
// configuration's schemas); its clients count no calls. The standard health check, which parses
// its .proto at load (130 ms of CPU in each authctl process), is `@auth/grpc-kit/health`.
export { hashAdminToken } from "./admin.js";
export {
  type CallOptions,
  type ClientOptions,
  createServiceClient,
  type ServiceClient,
} from "./client.js";
export { companyPolicy, defaultCompanyLimits, smsLimitsOutOfTheWay, smsSettings } from "./company-policy.js";
export type { RequestOf, ResponseOf, ServiceDefinition, UnaryMethod } from "./definition.js";
export { unanswered } from "./status.js";
export type { GrpcServiceName } from "./tls/spiffe.js";
export type { GrpcTransport } from "./tls/transport.js";
