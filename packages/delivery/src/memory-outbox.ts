import type { MailMessage } from "./mail-sender.js";
import type { SmsMessage } from "./sms-sender.js";

/** For tests: a sender (of e-mail, SMS or both) that keeps what it is given, in order. */
export class MemoryOutbox<M extends MailMessage | SmsMessage = MailMessage | SmsMessage> {
  readonly messages: M[] = [];

  async send(message: M): Promise<void> {
    this.messages.push(message);
  }

  close(): void {}
}
