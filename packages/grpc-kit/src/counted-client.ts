import { metrics } from "@auth/telemetry";
import { type ClientOptions, createServiceClient as createClient, type ServiceClient } from "./client.js";
import type { ServiceDefinition } from "./definition.js";

/**
 * A client whose calls are counted in the process's grpcClientCalls: the one the suite's processes
 * take from the package's index. authctl takes client.ts's own through `@auth/grpc-kit/client`,
 * which loads no metrics.
 */
export function createServiceClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  options: ClientOptions,
): ServiceClient<D> {
  return createClient(definition, address, { callCounter: metrics.grpcClientCalls, ...options });
}
