export interface MailMessage {
  companyId: string;
  to: string;
  subject: string;
  /** The plain-text part; `html` says the same in the layout (render-mail.ts). */
  text: string;
  html: string;
  /** A notice to the user (docs/security.md, "Notifications"): its event; absent on other messages. */
  notification?: string;
}

/** Delivers an e-mail or fails with an AuthError; never reports a send that did not happen. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
  close(): void;
}
