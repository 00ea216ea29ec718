import { JsonLinesOutbox } from "@auth/runtime";
import type { MailMessage, MailSender } from "./mail-sender.js";

/** The dev e-mail sender (MAIL_SENDER=dev, chosen by npm start and the tests): the outbox file, and a line on stdout. */
export class DevMailOutbox implements MailSender {
  readonly #outbox: JsonLinesOutbox<MailMessage>;

  constructor(file: string) {
    this.#outbox = new JsonLinesOutbox(
      file,
      (message) =>
        `[dev mail to ${message.to}] ${message.subject}: ${/https?:\/\/\S+/.exec(message.text)?.[0] ?? ""}`,
    );
  }

  send(message: MailMessage): Promise<void> {
    return this.#outbox.deliver(message);
  }

  close(): void {}
}
