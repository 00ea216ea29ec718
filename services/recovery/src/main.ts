import { connectIdentity, grpcServerOptionsOf, startGrpcServer } from "@auth/grpc-kit";
import { describeTarget, openKeyValueStore, redisOptionsOf, redisTargetOf, systemClock } from "@auth/kv";
import { createLogger, loadConfig, stopOnSignals } from "@auth/runtime";
import { configSchema } from "./config.js";
import { DevMailOutbox } from "./mail/dev-outbox.js";
import type { MailSender } from "./mail/sender.js";
import { SmtpMailSender } from "./mail/smtp.js";
import { recoveryService } from "./server.js";
import { RecoveryStore } from "./store/recovery-store.js";

const config = loadConfig("recovery", configSchema);
const logger = createLogger("recovery", config.LOG_LEVEL);
// Connecting until Redis answers; the server below serves from then on.
const kv = openKeyValueStore(redisTargetOf(config), redisOptionsOf(config, logger));
const mail: MailSender =
  config.MAIL_SENDER === "smtp" && config.SMTP_URL
    ? new SmtpMailSender({ url: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS })
    : new DevMailOutbox(config.MAIL_OUTBOX_FILE);
logger.info(
  { store: describeTarget(redisTargetOf(config)), mail: config.MAIL_SENDER },
  "recovery service starting",
);

const identity = connectIdentity(config);
const server = await startGrpcServer({
  ...grpcServerOptionsOf(config),
  logger,
  services: [
    recoveryService(
      new RecoveryStore(kv.store, systemClock),
      { identity, fallback: mail, timeoutMs: config.SMTP_TIMEOUT_MS },
      logger,
    ),
  ],
  ready: kv.ready,
});

stopOnSignals(logger, async () => {
  await server.stop();
  identity.close();
  mail.close();
  await kv.close();
});
