import { AuthError } from "@auth/errors";
import type { Transporter } from "nodemailer";
import type { MailMessage, MailSender } from "./mail-sender.js";

export interface SmtpOptions {
  /** smtp:// or smtps:// URL with credentials, as nodemailer reads it. */
  url: string;
  from: string;
  timeoutMs: number;
}

/**
 * nodemailer is loaded with the first SMTP sender, not with the package: a process that sends
 * through the dev outbox only never holds its 9 MiB of heap (docs/performance.md).
 */
const loadNodemailer = () => import("nodemailer").then((module) => module.default);

/** Sends over SMTP with nodemailer; a refused or failed delivery is service.unavailable. */
export class SmtpMailSender implements MailSender {
  readonly #options: SmtpOptions;
  #transport: Promise<Transporter> | undefined;

  constructor(options: SmtpOptions) {
    this.#options = options;
  }

  #open(): Promise<Transporter> {
    const { url, timeoutMs } = this.#options;
    this.#transport ??= loadNodemailer().then((nodemailer) =>
      nodemailer.createTransport({
        url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      }),
    );
    return this.#transport;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await (await this.#open()).sendMail({
        from: this.#options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    } catch (error) {
      throw new AuthError("service.unavailable", { detail: "e-mail not sent", cause: error });
    }
  }

  close(): void {
    void this.#transport?.then(
      (transport) => transport.close(),
      () => {
        // Never opened: nothing to close.
      },
    );
  }
}
