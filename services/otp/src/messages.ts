import { type MessageWording, messageTranslator } from "@auth/delivery";
import { OtpPurpose } from "@auth/proto/otp";
import type { SendPurpose } from "./otp-events.js";

/** The `sms` catalogue's message of each purpose. */
const messageKeys = {
  [OtpPurpose.LOGIN]: "login",
  [OtpPurpose.RECOVERY]: "recovery",
  [OtpPurpose.PHONE_CHANGE]: "phoneChange",
} as const;

/**
 * The SMS text for an OTP: the `sms` catalogue's message for the purpose, or the company's own, in
 * the request's language, else the company's default (docs/decisions.md, "Languages").
 */
export function otpMessage(
  purpose: SendPurpose,
  otp: string,
  lifetimeMinutes: number,
  wording: MessageWording,
): string {
  return messageTranslator(wording).format("sms", messageKeys[purpose], {
    code: otp,
    minutes: lifetimeMinutes,
  });
}
