import {
  type ChannelCredentials,
  type ChannelOptions,
  Client,
  credentials,
  Metadata,
  type ServiceError,
} from "@grpc/grpc-js";
import { service as healthService, type ServingStatus } from "grpc-health-check";
import { channelOptions } from "./client.js";

interface HealthCheckResponse {
  status: ServingStatus;
}

const check = (() => {
  const method = healthService.Check;
  if (!method) throw new Error("grpc-health-check no longer defines Health.Check");
  return method as typeof method & { responseDeserialize: (value: Buffer) => HealthCheckResponse };
})();

export interface HealthChannel {
  credentials: ChannelCredentials;
  options: ChannelOptions;
}

const plaintext = (): HealthChannel => ({ credentials: credentials.createInsecure(), options: {} });

/** A client of one server's standard health service, on a channel it keeps. */
export interface HealthClient {
  /** The status of one service ("" for the server); UNKNOWN when the server cannot be reached in time. */
  check(service: string, deadlineMs: number): Promise<ServingStatus>;
  close(): void;
}

/** In plain text (a health-only port) unless given the credentials of a TLS port. */
export function healthClient(
  address: string,
  channel: HealthChannel = plaintext(),
  keepaliveTimeoutMs?: number,
): HealthClient {
  const client = new Client(address, channel.credentials, {
    ...channel.options,
    ...channelOptions(keepaliveTimeoutMs),
  });
  return {
    check: (service, deadlineMs) =>
      new Promise<ServingStatus>((resolve) => {
        client.makeUnaryRequest(
          check.path,
          check.requestSerialize,
          check.responseDeserialize,
          { service },
          new Metadata(),
          { deadline: Date.now() + deadlineMs },
          (error: ServiceError | null, response?: HealthCheckResponse) => {
            resolve(error || !response ? "UNKNOWN" : response.status);
          },
        );
      }),
    close: () => client.close(),
  };
}

/** Asks a server's health service once, on a channel of its own. */
export async function checkHealth(
  address: string,
  service = "",
  deadlineMs = 1_000,
  channel: HealthChannel = plaintext(),
): Promise<ServingStatus> {
  const client = healthClient(address, channel);
  try {
    return await client.check(service, deadlineMs);
  } finally {
    client.close();
  }
}
