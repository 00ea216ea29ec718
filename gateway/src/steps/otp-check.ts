import { AuthError } from "@auth/errors";
import type { OtpPurpose } from "@auth/proto/otp";
import { SecretKind } from "@auth/proto/session";
import type { SessionFlowContext } from "../endpoint/context.js";
import { type Refusal, reserveCheck } from "./secret-checks.js";

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

/**
 * The session's OTP, checked under the user's budget of SMS codes in the session (a refused check is
 * answered by `refuse`) and burnt by the attempt; a wrong one is auth.otp.invalid.
 */
export async function assertOtpInSession(
  context: SessionFlowContext,
  userId: string,
  otp: string,
  refuse: Refusal,
  purpose?: OtpPurpose,
): Promise<void> {
  const check = await reserveCheck(context, { subject: { userId }, kind: SecretKind.SMS_CODE }, refuse);
  const valid = await check.run(
    () => otpValid(context, otp, purpose),
    (right) => right,
  );
  if (!valid) throw new AuthError("auth.otp.invalid");
}
