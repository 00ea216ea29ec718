import { AuthError } from "@auth/errors";
import { SmsProvider, type SmsSettings } from "@auth/proto/otp";
import { HttpSmsProvider } from "./http-sms-provider.js";
import type { HttpDefaults } from "./sms-retries.js";
import type { SmsSender } from "./sms-sender.js";
import { SnsSmsProvider } from "./sns-sms-provider.js";
import { TwilioSmsProvider } from "./twilio-sms-provider.js";
import { VonageSmsProvider } from "./vonage-sms-provider.js";

/**
 * The sender for a company: the provider its settings name (docs/decisions.md, "SMS providers"),
 * the deployment's default when they name none.
 */
export function senderFor(
  settings: SmsSettings | undefined,
  fallback: SmsSender,
  limits: HttpDefaults,
): SmsSender {
  if (!settings) return fallback;
  switch (settings.provider) {
    case SmsProvider.UNSPECIFIED:
      return fallback;
    case SmsProvider.HTTP:
      return new HttpSmsProvider({ url: settings.url, token: settings.token, ...limits });
    case SmsProvider.TWILIO:
      return new TwilioSmsProvider(settings, limits);
    case SmsProvider.VONAGE:
      return new VonageSmsProvider(settings, limits);
    case SmsProvider.AWS_SNS:
      return new SnsSmsProvider(settings, limits);
    case SmsProvider.UNRECOGNIZED:
      // Validation refuses it; a company's codes never go out through another provider than its own.
      throw new AuthError("service.unavailable", {
        detail: "SMS not sent: the company's SMS provider is unknown",
      });
    default:
      return settings.provider satisfies never;
  }
}
