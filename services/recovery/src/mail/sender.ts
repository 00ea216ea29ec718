export interface MailMessage {
  companyId: string;
  to: string;
  subject: string;
  text: string;
}

/** Delivers an e-mail or fails with an AuthError; never reports a send that did not happen. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
  close(): void;
}
