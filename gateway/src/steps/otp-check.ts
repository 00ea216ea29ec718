import type { SessionFlowContext } from "../endpoint/context.js";

/** Checks the session's current OTP at the OTP service; any attempt burns it. */
export async function otpValid(context: SessionFlowContext, otp: string): Promise<boolean> {
  const { valid } = await context.backends.otp.verifyOtp({
    companyId: context.company.id,
    sessionId: context.session.sessionId,
    otp,
  });
  return valid;
}
