import { JsonLinesOutbox } from "@auth/runtime";
import type { SmsMessage, SmsSender } from "./sms-sender.js";

/** The dev SMS sender (SMS_SENDER=dev, chosen by npm start and the tests): the outbox file, and a line on stdout. */
export class DevSmsOutbox implements SmsSender {
  readonly #outbox: JsonLinesOutbox<SmsMessage>;

  constructor(file: string) {
    this.#outbox = new JsonLinesOutbox(file, (message) => `[dev sms to ${message.to}] ${message.text}`);
  }

  send(message: SmsMessage): Promise<void> {
    return this.#outbox.deliver(message);
  }
}
