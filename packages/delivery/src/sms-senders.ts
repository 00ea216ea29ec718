import { SmsProvider, type SmsSettings } from "@auth/proto/otp";
import { HttpSmsProvider } from "./http-sms-provider.js";
import type { SmsSender } from "./sms-sender.js";

export interface HttpDefaults {
  timeoutMs: number;
  retries: number;
}

/** The sender for a company: its own HTTP provider when it has one, the deployment's default otherwise. */
export function senderFor(
  settings: SmsSettings | undefined,
  fallback: SmsSender,
  http: HttpDefaults,
): SmsSender {
  if (settings?.provider === SmsProvider.HTTP) {
    return new HttpSmsProvider({ url: settings.url, token: settings.token, ...http });
  }
  return fallback;
}
