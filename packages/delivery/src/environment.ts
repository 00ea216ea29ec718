import { env } from "@auth/runtime";
import { z } from "zod";
import { DevMailOutbox } from "./dev-mail-outbox.js";
import { DevSmsOutbox } from "./dev-sms-outbox.js";
import { HttpSmsProvider } from "./http-sms-provider.js";
import type { MailSender } from "./mail-sender.js";
import type { SmsSender } from "./sms-sender.js";
import { SmtpMailSender } from "./smtp.js";

/**
 * A sender is chosen, never defaulted: `dev` writes codes and recovery links to a file and to
 * stdout, so a deployment that forgot the variable must not start on it (docs/operations.md,
 * "Message senders"). npm start and the tests choose `dev`.
 */
const sender = <const Real extends string>(real: Real, needs: string) =>
  z.enum([real, "dev"], {
    error: (issue) =>
      issue.input === undefined
        ? `is required: ${real} (with ${needs}), or dev (messages written to an outbox file and stdout: for development only)`
        : `expected ${real} or dev`,
  });

/** The deployment's e-mail sender, for companies without their own SMTP server. */
export const mailEnvironment = {
  MAIL_SENDER: sender("smtp", "SMTP_URL"),
  /** Where the dev sender appends its messages. */
  MAIL_OUTBOX_FILE: z.string().min(1).default(".data/mail-outbox.jsonl"),
  SMTP_URL: env.url(["smtp:", "smtps:"]).optional(),
  MAIL_FROM: z.string().min(3).default("Access recovery <no-reply@localhost>"),
  SMTP_TIMEOUT_MS: env.positiveInt(10_000),
};

/** The deployment's SMS sender, for companies without their own provider. */
export const smsEnvironment = {
  SMS_SENDER: sender("http", "SMS_HTTP_URL"),
  /** Where the dev sender appends its messages. */
  SMS_OUTBOX_FILE: z.string().min(1).default(".data/sms-outbox.jsonl"),
  SMS_HTTP_URL: env.url(["http:", "https:"]).optional(),
  SMS_HTTP_TOKEN: z.string().optional(),
  SMS_HTTP_TIMEOUT_MS: env.positiveInt(3_000),
  SMS_HTTP_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
};

type MailConfig = z.infer<z.ZodObject<typeof mailEnvironment>>;
type SmsConfig = z.infer<z.ZodObject<typeof smsEnvironment>>;

/** The settings a chosen sender needs. */
export function checkDeliverySettings(
  config: Partial<MailConfig & SmsConfig>,
  context: z.RefinementCtx,
): void {
  if (config.MAIL_SENDER === "smtp" && !config.SMTP_URL) {
    context.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required with MAIL_SENDER=smtp" });
  }
  if (config.SMS_SENDER === "http" && !config.SMS_HTTP_URL) {
    context.addIssue({ code: "custom", path: ["SMS_HTTP_URL"], message: "is required with SMS_SENDER=http" });
  }
}

/** What a process with a dev sender says at start, at the level of warnings, once. */
export const devSendersWarning =
  "dev senders chosen: codes and recovery links are not sent but written to the outbox file and stdout; for development only, never in production";

/** Logs devSendersWarning when the process sends through a dev sender, naming the variables. */
export function warnOfDevSenders(
  config: Partial<
    Pick<MailConfig, "MAIL_SENDER" | "MAIL_OUTBOX_FILE"> & Pick<SmsConfig, "SMS_SENDER" | "SMS_OUTBOX_FILE">
  >,
  logger: { warn(fields: object, message: string): void },
): void {
  const dev = [
    config.MAIL_SENDER === "dev" && { variable: "MAIL_SENDER", outbox: config.MAIL_OUTBOX_FILE },
    config.SMS_SENDER === "dev" && { variable: "SMS_SENDER", outbox: config.SMS_OUTBOX_FILE },
  ].filter((chosen) => chosen !== false);
  if (dev.length === 0) return;
  logger.warn(
    { senders: dev.map(({ variable }) => `${variable}=dev`), outboxes: dev.map(({ outbox }) => outbox) },
    devSendersWarning,
  );
}

export function deploymentMailSender(config: MailConfig): MailSender {
  return config.MAIL_SENDER === "smtp" && config.SMTP_URL
    ? new SmtpMailSender({ url: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS })
    : new DevMailOutbox(config.MAIL_OUTBOX_FILE);
}

/** The HTTP provider's timeout and retries, for companies' own providers too. */
export const smsHttpDefaultsOf = (config: SmsConfig) => ({
  timeoutMs: config.SMS_HTTP_TIMEOUT_MS,
  retries: config.SMS_HTTP_RETRIES,
});

export function deploymentSmsSender(config: SmsConfig): SmsSender {
  return config.SMS_SENDER === "http" && config.SMS_HTTP_URL
    ? new HttpSmsProvider({
        url: config.SMS_HTTP_URL,
        token: config.SMS_HTTP_TOKEN ?? "",
        ...smsHttpDefaultsOf(config),
      })
    : new DevSmsOutbox(config.SMS_OUTBOX_FILE);
}
