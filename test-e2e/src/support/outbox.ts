import { readFileSync } from "node:fs";
import { inject } from "vitest";

interface OutboxLine {
  companyId: string;
  to: string;
  text: string;
  subject?: string;
  /** Set on a notice to the user (docs/security.md, "Notifications"): the event it tells of. */
  notification?: string;
}

function lines(file: string): OutboxLine[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as OutboxLine);
  } catch {
    return [];
  }
}

/** The messages of the flows (codes, links) to this address of this company: no notices. */
const flowMessagesTo = (file: string, companyId: string, to: string) =>
  lines(file).filter(
    (message) => message.companyId === companyId && message.to === to && message.notification === undefined,
  );

/** The SMS messages with codes the dev outbox delivered to this phone of this company, oldest first. */
export function smsTo(companyId: string, phone: string, outboxFile = inject("smsOutboxFile")): string[] {
  return flowMessagesTo(outboxFile, companyId, phone).map((message) => message.text);
}

/** The code in the newest SMS to this phone. */
export function lastOtp(companyId: string, phone: string, outboxFile = inject("smsOutboxFile")): string {
  const text = smsTo(companyId, phone, outboxFile).at(-1) ?? "";
  const otp = /\b(\d{6})\b/.exec(text)?.[1];
  if (!otp) throw new Error(`no OTP sent to ${phone}`);
  return otp;
}

/** The recovery e-mails the dev outbox delivered to this address of this company, oldest first. */
export function mailTo(
  companyId: string,
  email: string,
  outboxFile = inject("mailOutboxFile"),
): Array<{ subject: string; text: string }> {
  return flowMessagesTo(outboxFile, companyId, email).map((message) => ({
    subject: message.subject ?? "",
    text: message.text,
  }));
}

export interface Notice {
  /** The event, as identity names it: password_changed, recovery_started, ... */
  notification: string;
  channel: "email" | "sms";
  subject: string;
  text: string;
}

/**
 * The notices the dev outboxes delivered to this user of this company (e-mails to `email`, SMS to
 * `phone`), oldest first within each channel. Notices are sent in the background: wait for them.
 */
export function notificationsTo(
  companyId: string,
  to: { email?: string; phone?: string },
  files = { mail: inject("mailOutboxFile"), sms: inject("smsOutboxFile") },
): Notice[] {
  const of = (file: string, address: string | undefined, channel: Notice["channel"]) =>
    lines(file)
      .filter((message) => message.companyId === companyId && message.to === address && message.notification)
      .map((message) => ({
        notification: message.notification ?? "",
        channel,
        subject: message.subject ?? "",
        text: message.text,
      }));
  return [...of(files.mail, to.email, "email"), ...of(files.sms, to.phone, "sms")];
}

/** The link in a recovery e-mail. */
export function recoveryLink(text: string): string {
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no link in: ${text}`);
  return link;
}

/** The token of the link in a recovery e-mail. */
export function linkToken(text: string): string {
  const token = new URL(recoveryLink(text)).searchParams.get("token");
  if (!token) throw new Error(`no link with a token in: ${text}`);
  return token;
}
