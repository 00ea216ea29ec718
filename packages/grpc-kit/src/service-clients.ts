import { IdentityServiceService } from "@auth/proto/identity";
import { SessionServiceService } from "@auth/proto/session";
import { env } from "@auth/runtime";
import { createServiceClient, type ServiceClient } from "./client.js";
import type { ServiceDefinition } from "./definition.js";
import type { GrpcServiceName } from "./tls/spiffe.js";
import { transportOf } from "./tls/transport.js";

const deadlineEnvironment = {
  /** Milliseconds a call to another service may take. */
  GRPC_DEADLINE_MS: env.positiveInt(3_000),
};

/** What a service that asks the identity service reads: where it is, and how long a call may take. */
export const identityClientEnvironment = {
  /** The identity service, which owns companies, users and their delivery settings. */
  IDENTITY_ADDR: env.address("127.0.0.1:50051"),
  ...deadlineEnvironment,
};

/** What a service that spends the session service's budget of guesses reads. */
export const sessionClientEnvironment = {
  /** The session service, which owns sessions and the budgets of secret checks. */
  SESSION_ADDR: env.address("127.0.0.1:50052"),
  ...deadlineEnvironment,
};

type TransportSettings = Parameters<typeof transportOf>[0];

function connect<D extends ServiceDefinition>(
  definition: D,
  address: string,
  settings: { GRPC_DEADLINE_MS: number } & TransportSettings,
  server: GrpcServiceName,
): ServiceClient<D> {
  return createServiceClient(definition, address, {
    deadlineMs: settings.GRPC_DEADLINE_MS,
    transport: transportOf(settings),
    server,
  });
}

/** A client of the identity service with this process's certificate. */
export function connectIdentity(
  settings: { IDENTITY_ADDR: string; GRPC_DEADLINE_MS: number } & TransportSettings,
): ServiceClient<typeof IdentityServiceService> {
  return connect(IdentityServiceService, settings.IDENTITY_ADDR, settings, "identity");
}

/** A client of the session service with this process's certificate. */
export function connectSession(
  settings: { SESSION_ADDR: string; GRPC_DEADLINE_MS: number } & TransportSettings,
): ServiceClient<typeof SessionServiceService> {
  return connect(SessionServiceService, settings.SESSION_ADDR, settings, "session");
}
