import { randomBytes } from "node:crypto";
import { MemoryOutbox, type SmsMessage, type SmsSender } from "@auth/delivery";
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
import { OtpHasher } from "./otp-codes.js";
import { type OtpRules, Otps } from "./otps.js";
import { otpService } from "./server.js";
import { OtpStore } from "./store/otp-store.js";

/** The deployment's SMS sender of the tests: it keeps what it is given, oldest first. */
export class SmsOutboxForTests extends MemoryOutbox<SmsMessage> {}

/**
 * The OTP service in the test's process, as main.ts builds it but over the in-process store and
 * with the SMS kept in `outbox`: a real gRPC server on a free loopback port, under its access
 * table. `env` is what the process would read (its TLS_* files, IDENTITY_ADDR).
 */
export async function startOtpForTests(options: {
  env: NodeJS.ProcessEnv;
  clock: Clock;
  outbox: SmsSender;
  logger: Logger;
}): Promise<RunningGrpcServer> {
  // Its sender is `outbox`; the variable is chosen as the suite chooses it (docs/operations.md, "Message senders").
  const config = configSchema.parse({ SMS_SENDER: "dev", ...options.env, GRPC_PORT: "0" });
  const rules: OtpRules = {
    lifetimeMs: config.OTP_LIFETIME_SECONDS * 1000,
    cooldownMs: config.OTP_RESEND_COOLDOWN_SECONDS * 1000,
    sendsPerSession: config.OTP_SENDS_PER_SESSION,
    sendsPerUserPerHour: config.OTP_SENDS_PER_USER_PER_HOUR,
  };
  const kv = new MemoryKeyValueStore(options.clock);
  const otps = new Otps(new OtpStore(kv), new OtpHasher(randomBytes(32)), rules);
  const identity = connectIdentity(config);
  const http = { timeoutMs: config.SMS_HTTP_TIMEOUT_MS, retries: config.SMS_HTTP_RETRIES };
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [otpService(otps, rules, { identity, fallback: options.outbox, http }, options.logger)],
  });
  return closingAfterStop(server, async () => {
    identity.close();
    await kv.close();
  });
}
