import { readFileSync } from "node:fs";
import { inject } from "vitest";

interface OutboxLine {
  companyId: string;
  to: string;
  text: string;
  subject?: string;
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

/** The SMS messages the dev outbox delivered to this phone of this company, oldest first. */
export function smsTo(companyId: string, phone: string, outboxFile = inject("smsOutboxFile")): string[] {
  return lines(outboxFile)
    .filter((message) => message.companyId === companyId && message.to === phone)
    .map((message) => message.text);
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
  return lines(outboxFile)
    .filter((message) => message.companyId === companyId && message.to === email)
    .map((message) => ({ subject: message.subject ?? "", text: message.text }));
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
