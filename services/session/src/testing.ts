import {
  closingAfterStop,
  connectIdentity,
  grpcServerOptionsOf,
  type RunningGrpcServer,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type Clock, MemoryKeyValueStore } from "@auth/kv";
import { SessionState } from "@auth/proto/session";
import { type Logger, TtlCache } from "@auth/runtime";
import { CompanyRules } from "./check-policies.js";
import { configSchema } from "./config.js";
import { introspectionService } from "./introspection.js";
import { sessionService } from "./server.js";
import { CheckBudget } from "./store/check-budget.js";
import { KnownDevices } from "./store/known-devices.js";
import { PasskeyChallenges } from "./store/passkey-challenges.js";
import { SessionStore } from "./store/session-store.js";
import { UserNotices } from "./user-notices.js";

/**
 * The session service in the test's process, as main.ts builds it but over the in-process store and
 * the test's clock: a real gRPC server on a free loopback port, under its access table. `env` is
 * what the process would read (its TLS_* files, IDENTITY_ADDR, ADMIN_TOKEN_SHA256).
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
  const identity = connectIdentity(config);
  const rules = new CompanyRules(identity, new TtlCache(0));
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [
      sessionService(
        {
          sessions,
          budget: new CheckBudget(kv, options.clock),
          challenges: new PasskeyChallenges(kv, sessions),
          devices: new KnownDevices(kv, options.clock),
          rules,
          notices: new UserNotices(identity, options.logger),
          adminTokenSha256: config.ADMIN_TOKEN_SHA256,
        },
        options.logger,
      ),
      introspectionService(sessions, config.ADMIN_TOKEN_SHA256, options.logger),
    ],
  });
  return closingAfterStop(server, async () => {
    identity.close();
    await kv.close();
  });
}
