export interface MailMessage {
  companyId: string;
  to: string;
  subject: string;
  text: string;
  /** A notice to the user (docs/security.md, "Notifications"): its event; absent on other messages. */
  notification?: string;
}

/** Delivers an e-mail or fails with an AuthError; never reports a send that did not happen. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
  close(): void;
}
