import {
  closingAfterStop,
  grpcServerOptionsOf,
  type RunningGrpcServer,
  type ServiceClient,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type Clock, MemoryKeyValueStore } from "@auth/kv";
import { type CompanyLimits, type SessionServiceService, SessionState } from "@auth/proto/session";
import type { Logger } from "@auth/runtime";
import { configSchema } from "./config.js";
import { introspectionService } from "./introspection.js";
import { sessionService } from "./server.js";
import { CheckBudget } from "./store/check-budget.js";
import { KnownDevices } from "./store/known-devices.js";
import { PasskeyChallenges } from "./store/passkey-challenges.js";
import { SessionStore } from "./store/session-store.js";

/**
 * The session service in the test's process, as main.ts builds it but over the in-process store and
 * the test's clock: a real gRPC server on a free loopback port, under its access table. `env` is
 * what the process would read (its TLS_* files, ADMIN_TOKEN_SHA256).
 */
export async function startSessionForTests(options: {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
}): Promise<RunningGrpcServer> {
  const config = configSchema.parse({ ...options.env, GRPC_PORT: "0" });
  const kv = new MemoryKeyValueStore(options.clock);
  const sessions = new SessionStore(kv, options.clock, {
    of: (state) =>
      (state === SessionState.AUTHORIZED
        ? config.AUTHORIZED_TOKEN_TTL_SECONDS
        : config.PREAUTH_TOKEN_TTL_SECONDS) * 1000,
  });
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [
      sessionService(
        {
          sessions,
          budget: new CheckBudget(kv, options.clock),
          challenges: new PasskeyChallenges(kv, sessions),
          devices: new KnownDevices(options.clock),
          adminTokenSha256: config.ADMIN_TOKEN_SHA256,
        },
        options.logger,
      ),
      introspectionService(sessions, config.ADMIN_TOKEN_SHA256, options.logger),
    ],
  });
  return closingAfterStop(server, () => kv.close());
}

type SessionClient = ServiceClient<typeof SessionServiceService>;

/**
 * A client of the session service whose calls that take the company's limits are sent `limits()`
 * unless the request names its own, as the gateway and identity send them (docs/security.md,
 * "The limits a caller sends").
 */
export function withLimits(client: SessionClient, limits: () => CompanyLimits): SessionClient {
  return {
    ...client,
    createSession: (request, options) => client.createSession({ limits: limits(), ...request }, options),
    advanceSession: (request, options) => client.advanceSession({ limits: limits(), ...request }, options),
    getCheckBudget: (request, options) => client.getCheckBudget({ limits: limits(), ...request }, options),
    reserveSecretCheck: (request, options) =>
      client.reserveSecretCheck({ limits: limits(), ...request }, options),
  };
}
