import { IdentityServiceService } from "@auth/proto/identity";
import { env } from "@auth/runtime";
import { createServiceClient, type ServiceClient } from "./client.js";
import { type GrpcTransport, transportOf } from "./tls/transport.js";

/** What a service that asks the identity service reads: where it is, and how long a call may take. */
export const identityClientEnvironment = {
  /** The identity service, which owns companies, users and their delivery settings. */
  IDENTITY_ADDR: env.address("127.0.0.1:50051"),
  /** Milliseconds a call to the identity service may take. */
  GRPC_DEADLINE_MS: env.positiveInt(3_000),
};

type IdentityClientSettings = { IDENTITY_ADDR: string; GRPC_DEADLINE_MS: number } & Parameters<
  typeof transportOf
>[0];

/** A client of the identity service with this process's certificate. */
export function connectIdentity(
  settings: IdentityClientSettings,
): ServiceClient<typeof IdentityServiceService> {
  const transport: GrpcTransport = transportOf(settings);
  return createServiceClient(IdentityServiceService, settings.IDENTITY_ADDR, {
    deadlineMs: settings.GRPC_DEADLINE_MS,
    transport,
    server: "identity",
  });
}
