import { z } from "zod";
import { sendOtp } from "../steps/otp-delivery.js";
import { currentUser } from "../steps/user-status.js";
import { sessionEndpoint } from "./endpoint.js";

/** spec 4.4: a new OTP to the user's primary phone; the token stays the same. */
export const renewotp = sessionEndpoint("renewotp", z.object({}), async (context) => {
  const user = await currentUser(context, context.session.userId);
  return { user_phone: await sendOtp(context, user, context.session.sessionId) };
});
