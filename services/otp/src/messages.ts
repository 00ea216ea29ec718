import { OtpPurpose } from "@auth/proto/otp";

/** The SMS text for an OTP, by what it is for. */
export function otpMessage(purpose: OtpPurpose, otp: string, lifetimeMinutes: number): string {
  const what = purpose === OtpPurpose.RECOVERY ? "access recovery code" : "login code";
  return `Your ${what} is ${otp}. It expires in ${lifetimeMinutes} minutes. Never share it.`;
}
