import type { OtpPurpose } from "@auth/proto/otp";
import type { SessionFlowContext } from "../endpoint/context.js";

/**
 * Checks the session's current OTP at the OTP service; any attempt burns it. A phone change's code
 * (purpose PHONE_CHANGE) is right only for it, and the otp service applies the change.
 */
export async function otpValid(
  context: SessionFlowContext,
  otp: string,
  purpose?: OtpPurpose,
): Promise<boolean> {
  const { valid } = await context.backends.otp.verifyOtp({
    companyId: context.company.id,
    sessionId: context.session.sessionId,
    otp,
    purpose,
  });
  return valid;
}
