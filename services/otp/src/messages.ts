import { OtpPurpose, type SmsSettings } from "@auth/proto/otp";

const defaultTemplates = {
  [OtpPurpose.LOGIN]: "Your login code is {code}. It expires in {minutes} minutes. Never share it.",
  [OtpPurpose.RECOVERY]:
    "Your access recovery code is {code}. It expires in {minutes} minutes. Never share it.",
};

/** The SMS text for an OTP: the company's template for the purpose, or the service's wording. */
export function otpMessage(
  purpose: OtpPurpose.LOGIN | OtpPurpose.RECOVERY,
  otp: string,
  lifetimeMinutes: number,
  settings?: SmsSettings,
): string {
  const template =
    (purpose === OtpPurpose.RECOVERY ? settings?.recoveryTemplate : settings?.loginTemplate) ??
    defaultTemplates[purpose];
  return template.replaceAll("{code}", otp).replaceAll("{minutes}", String(lifetimeMinutes));
}
