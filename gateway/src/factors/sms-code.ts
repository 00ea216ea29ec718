import { SecondFactorKind } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { SecretKind } from "@auth/proto/session";
import { otpValid } from "../steps/otp-check.js";
import { sendOtp } from "../steps/otp-delivery.js";
import { compareInSession } from "../steps/secret-checks.js";
import type { SecondFactor } from "./second-factor.js";

/**
 * A one-time password sent by SMS to the user's phone (spec 4.3, 4.4): any check burns it, and the
 * otp service caps the sends (docs/api-contract.md, "One-time passwords").
 */
export const smsCode = {
  kind: SecondFactorKind.SMS,
  field: "otp",
  secretKind: SecretKind.SMS_CODE,
  wrongAnswer: "auth.otp.invalid",
  challengeErrors: sendOtp.errors,
  async challenge(context, user, { sessionId }) {
    return { userPhone: await sendOtp(context, user, sessionId, OtpPurpose.LOGIN) };
  },
  verify: (context, _user, answer) =>
    compareInSession(context, SecretKind.SMS_CODE, () => otpValid(context, answer)),
} satisfies SecondFactor;
