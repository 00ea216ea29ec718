import { JsonLinesOutbox } from "@auth/runtime";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

/** The embedded default's SMS sender: the dev outbox file, and a line on the console. */
export class DevSmsOutbox implements SmsSender {
  readonly #outbox: JsonLinesOutbox<SmsMessage>;

  constructor(file: string) {
    this.#outbox = new JsonLinesOutbox(file, (message) => `[dev sms to ${message.to}] ${message.text}`);
  }

  send(message: SmsMessage): Promise<void> {
    return this.#outbox.deliver(message);
  }
}
