export interface SmsMessage {
  companyId: string;
  /** E.164. */
  to: string;
  text: string;
}

/** Delivers an SMS or fails with an AuthError; never reports a send that did not happen. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
