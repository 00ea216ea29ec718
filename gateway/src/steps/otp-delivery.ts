import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import type { FlowContext } from "../flows/endpoint.js";

/** Sends a new OTP to the user's primary phone; returns the masked phone for `user_phone`. */
export async function sendOtp(
  context: FlowContext,
  user: User,
  sessionId: string,
  purpose: OtpPurpose = OtpPurpose.LOGIN,
): Promise<string> {
  // Users without a password always have a phone; a second factor without one cannot be passed.
  if (!user.phone)
    throw new AuthError("auth.user.restricted", { detail: "second factor required but no phone" });
  const { maskedPhone } = await context.backends.otp.sendOtp({
    companyId: context.company.id,
    userId: user.id,
    sessionId,
    phone: user.phone,
    purpose,
    sms: context.company.policy.sms,
  });
  return maskedPhone;
}
