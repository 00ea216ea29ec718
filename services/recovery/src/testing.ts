import { type MailMessage, type MailSender, MemoryOutbox } from "@auth/delivery";
import {
  closingAfterStop,
  connectIdentity,
  grpcServerOptionsOf,
  type RunningGrpcServer,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type Clock, MemoryKeyValueStore } from "@auth/kv";
import type { Logger } from "@auth/runtime";
import { configSchema } from "./config.js";
import { recoveryService } from "./server.js";
import { RecoveryStore } from "./store/recovery-store.js";

/** The recovery e-mail as the service builds it: for the previews of test-e2e. */
export { recoveryLink, recoveryMail } from "./links.js";

/** The deployment's mail sender of the tests: it keeps what it is given, oldest first. */
export class MailOutboxForTests extends MemoryOutbox<MailMessage> {}

/**
 * The recovery service in the test's process, as main.ts builds it but over the in-process store
 * and with the e-mails kept in `outbox`: a real gRPC server on a free loopback port, under its
 * access table. `env` is what the process would read (its TLS_* files, IDENTITY_ADDR).
 */
export async function startRecoveryForTests(options: {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  outbox: MailSender;
  logger: Logger;
}): Promise<RunningGrpcServer> {
  // Its sender is `outbox`; the variable is chosen as the suite chooses it (docs/operations.md, "Message senders").
  const config = configSchema.parse({ MAIL_SENDER: "dev", ...options.env, GRPC_PORT: "0" });
  const kv = new MemoryKeyValueStore(options.clock);
  const identity = connectIdentity(config);
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [
      recoveryService(
        new RecoveryStore(kv, options.clock),
        { identity, fallback: options.outbox, timeoutMs: config.SMTP_TIMEOUT_MS },
        options.logger,
      ),
    ],
  });
  return closingAfterStop(server, async () => {
    identity.close();
    await kv.close();
  });
}
