import { ChannelCredentials, Client, Metadata, type ServiceError } from "@grpc/grpc-js";
import { service as healthService, type ServingStatus } from "grpc-health-check";

interface HealthCheckResponse {
  status: ServingStatus;
}

const check = (() => {
  const method = healthService.Check;
  if (!method) throw new Error("grpc-health-check no longer defines Health.Check");
  return method as typeof method & { responseDeserialize: (value: Buffer) => HealthCheckResponse };
})();

/**
 * Asks a server's standard health service for the status of one service ("" for the server).
 * A server that cannot be reached within the deadline is UNKNOWN.
 */
export function checkHealth(address: string, service = "", deadlineMs = 1_000): Promise<ServingStatus> {
  const client = new Client(address, ChannelCredentials.createInsecure());
  return new Promise<ServingStatus>((resolve) => {
    client.makeUnaryRequest(
      check.path,
      check.requestSerialize,
      check.responseDeserialize,
      { service },
      new Metadata(),
      { deadline: Date.now() + deadlineMs },
      (error: ServiceError | null, response?: HealthCheckResponse) => {
        client.close();
        resolve(error || !response ? "UNKNOWN" : response.status);
      },
    );
  });
}
