export { DevMailOutbox } from "./dev-mail-outbox.js";
export { DevSmsOutbox } from "./dev-sms-outbox.js";
export {
  checkDeliverySettings,
  deploymentMailSender,
  deploymentSmsSender,
  devSendersWarning,
  mailEnvironment,
  smsEnvironment,
  smsHttpDefaultsOf,
  warnOfDevSenders,
} from "./environment.js";
export { HttpSmsProvider, type HttpSmsProviderOptions } from "./http-sms-provider.js";
export type { MailMessage, MailSender } from "./mail-sender.js";
export { sendMail } from "./mail-senders.js";
export { MemoryOutbox } from "./memory-outbox.js";
export { type MessageWording, messageTranslator } from "./message-language.js";
export { type MailContent, renderMail } from "./render-mail.js";
export type { HttpDefaults } from "./sms-retries.js";
export type { SmsMessage, SmsSender } from "./sms-sender.js";
export { senderFor } from "./sms-senders.js";
export { SmtpMailSender, type SmtpOptions } from "./smtp.js";
