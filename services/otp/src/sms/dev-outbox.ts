import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { SmsMessage, SmsSender } from "./sender.js";

/**
 * The embedded default's SMS sender: each message is printed and appended as a JSON line to a
 * file that the demo and the tests read. Never for production: the file holds the codes.
 */
export class DevOutbox implements SmsSender {
  constructor(
    private readonly file: string,
    private readonly print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {}

  async send(message: SmsMessage): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await appendFile(this.file, `${JSON.stringify({ ...message, sentAt: new Date().toISOString() })}\n`);
    this.print(`[dev sms to ${message.to}] ${message.text}`);
  }
}
