import { randomBytes } from "node:crypto";
import { deploymentSmsSender, smsHttpDefaultsOf, warnOfDevSenders } from "@auth/delivery";
import { keyValueOutboxSource, relayServiceOutbox } from "@auth/events";
import { connectIdentity, grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { describeTarget, openKeyValueStore, redisOptionsOf, redisTargetOf } from "@auth/kv";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { OtpHasher } from "./otp-codes.js";
import { type OtpRules, Otps } from "./otps.js";
import { otpService } from "./server.js";
import { OtpStore } from "./store/otp-store.js";

const config = loadConfig("otp", configSchema);
const logger = createLogger("otp", config.LOG_LEVEL);
// Before anything is awaited: a signal during the start-up stops the process in order.
const shutdown = stopOnSignals(logger);
warnOfDevSenders(config, logger);
// Connecting until Redis answers; the server below serves from then on.
const kv = openKeyValueStore(redisTargetOf(config), redisOptionsOf(config, logger));
const relay = relayServiceOutbox({
  service: "otp",
  source: keyValueOutboxSource(kv.store),
  config,
  logger,
  ready: kv.ready,
});

const http = smsHttpDefaultsOf(config);
const fallback = deploymentSmsSender(config);
logger.info({ store: describeTarget(redisTargetOf(config)), sms: config.SMS_SENDER }, "otp service starting");

const rules: OtpRules = {
  lifetimeMs: config.OTP_LIFETIME_SECONDS * 1000,
  cooldownMs: config.OTP_RESEND_COOLDOWN_SECONDS * 1000,
  sendsPerSession: config.OTP_SENDS_PER_SESSION,
  sendsPerUserPerHour: config.OTP_SENDS_PER_USER_PER_HOUR,
};

// In-process OTPs die with the process, so a per-process secret is enough there.
const secret = config.OTP_HASH_SECRET ? Buffer.from(config.OTP_HASH_SECRET) : randomBytes(32);
const otps = new Otps(new OtpStore(kv.store), new OtpHasher(secret), rules);
const identity = connectIdentity(config);
const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  onAnswered: relay.wake,
  services: [otpService(otps, rules, { identity, fallback, http }, logger)],
  ready: kv.ready,
});

shutdown.stopWith(async () => {
  await server.stop();
  identity.close();
  await relay.stop();
  await kv.close();
});
