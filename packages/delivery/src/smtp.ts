import { AuthError } from "@auth/errors";
import nodemailer, { type Transporter } from "nodemailer";
import type { MailMessage, MailSender } from "./mail-sender.js";

export interface SmtpOptions {
  /** smtp:// or smtps:// URL with credentials, as nodemailer reads it. */
  url: string;
  from: string;
  timeoutMs: number;
}

/** Sends over SMTP with nodemailer; a refused or failed delivery is service.unavailable. */
export class SmtpMailSender implements MailSender {
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(options: SmtpOptions) {
    this.#transport = nodemailer.createTransport({
      url: options.url,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    this.#from = options.from;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    } catch (error) {
      throw new AuthError("service.unavailable", { detail: "e-mail not sent", cause: error });
    }
  }

  close(): void {
    this.#transport.close();
  }
}
