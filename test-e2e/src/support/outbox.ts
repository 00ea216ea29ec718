import { readFileSync } from "node:fs";
import { inject } from "vitest";

interface OutboxLine {
  companyId: string;
  to: string;
  text: string;
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
