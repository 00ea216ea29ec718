import type { MailSettings } from "@auth/proto/recovery";
import type { MailMessage, MailSender } from "./mail-sender.js";
import { SmtpMailSender } from "./smtp.js";

/**
 * Sends an e-mail through the company's own SMTP server when it has one (a connection for this
 * message only), through the deployment's sender otherwise.
 */
export async function sendMail(
  message: MailMessage,
  settings: MailSettings | undefined,
  fallback: MailSender,
  timeoutMs: number,
): Promise<void> {
  if (!settings?.smtpUrl) return fallback.send(message);
  const sender = new SmtpMailSender({ url: settings.smtpUrl, from: settings.from, timeoutMs });
  await sender.send(message).finally(() => sender.close());
}
