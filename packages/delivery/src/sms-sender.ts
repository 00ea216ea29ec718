export interface SmsMessage {
  companyId: string;
  /** E.164. */
  to: string;
  text: string;
  /** A notice to the user (docs/security.md, "Notifications"): its event; absent on other messages. */
  notification?: string;
}

/** Delivers an SMS or fails with an AuthError; never reports a send that did not happen. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
