import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import { sendOtp } from "../../steps/otp-delivery.js";
import { currentUser } from "../../steps/user-status.js";
import { sessionEndpoint } from "../endpoint.js";

/** spec 4.12: a new recovery OTP to the user's primary phone; the token stays the same. */
export const recoveryRenewotp = sessionEndpoint("recovery/renewotp", z.object({}), async (context) => {
  const user = await currentUser(context, context.session.userId);
  await sendOtp(context, user, context.session.sessionId, OtpPurpose.RECOVERY);
  return {};
});
