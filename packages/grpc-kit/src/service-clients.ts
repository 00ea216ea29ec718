import { IdentityServiceService } from "@auth/proto/identity";
import { TokenIntrospectionServiceService } from "@auth/proto/introspection";
import { SessionServiceService } from "@auth/proto/session";
import { env } from "@auth/runtime";
import { defaultKeepaliveTimeoutMs, type ServiceClient } from "./client.js";
import { createServiceClient } from "./counted-client.js";
import type { ServiceDefinition } from "./definition.js";
import type { GrpcServiceName } from "./tls/spiffe.js";
import { transportOf } from "./tls/transport-settings.js";

/** How this process's calls to other services behave. */
export const grpcCallEnvironment = {
  /** Milliseconds a call to another service may take before it fails with service.unavailable. */
  GRPC_DEADLINE_MS: env.positiveInt(3_000),
  /**
   * Milliseconds a connection to a service may leave a keepalive ping unanswered before it counts as
   * dead and its calls fail: how fast a hung replica is left, and how long a healthy but starved one
   * is waited for (docs/operations.md, "A replica that hangs").
   */
  GRPC_KEEPALIVE_TIMEOUT_MS: env.positiveInt(defaultKeepaliveTimeoutMs),
};

export interface GrpcCallSettings {
  GRPC_DEADLINE_MS: number;
  GRPC_KEEPALIVE_TIMEOUT_MS: number;
}

/** What a service that asks the identity service reads: where it is, and how long a call may take. */
export const identityClientEnvironment = {
  /** The identity service, which owns companies, users and their delivery settings. */
  IDENTITY_ADDR: env.address("127.0.0.1:50051"),
  ...grpcCallEnvironment,
};

/** What a service that spends the session service's budget of guesses reads. */
export const sessionClientEnvironment = {
  /** The session service, which owns sessions and the budgets of secret checks. */
  SESSION_ADDR: env.address("127.0.0.1:50052"),
  ...grpcCallEnvironment,
};

type TransportSettings = Parameters<typeof transportOf>[0];

function connect<D extends ServiceDefinition>(
  definition: D,
  address: string,
  settings: GrpcCallSettings & TransportSettings,
  server: GrpcServiceName,
): ServiceClient<D> {
  return createServiceClient(definition, address, {
    deadlineMs: settings.GRPC_DEADLINE_MS,
    keepaliveTimeoutMs: settings.GRPC_KEEPALIVE_TIMEOUT_MS,
    transport: transportOf(settings),
    server,
  });
}

/** A client of the identity service with this process's certificate. */
export function connectIdentity(
  settings: { IDENTITY_ADDR: string } & GrpcCallSettings & TransportSettings,
): ServiceClient<typeof IdentityServiceService> {
  return connect(IdentityServiceService, settings.IDENTITY_ADDR, settings, "identity");
}

/** A client of the session service with this process's certificate. */
export function connectSession(
  settings: { SESSION_ADDR: string } & GrpcCallSettings & TransportSettings,
): ServiceClient<typeof SessionServiceService> {
  return connect(SessionServiceService, settings.SESSION_ADDR, settings, "session");
}

/**
 * A client of the session process's token introspection, with this process's certificate: for a
 * service that serves a signed-in user and asks the session service whose the token is.
 */
export function connectIntrospection(
  settings: { SESSION_ADDR: string } & GrpcCallSettings & TransportSettings,
): ServiceClient<typeof TokenIntrospectionServiceService> {
  return connect(TokenIntrospectionServiceService, settings.SESSION_ADDR, settings, "session");
}
