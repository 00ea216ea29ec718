import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import {
  answerExamples,
  type SuccessFields,
  success,
  userPhone,
  userStatusErrors,
} from "../endpoint/responses.js";
import { sendLoginOtp } from "../steps/otp-delivery.js";
import { currentUser } from "../steps/user-status.js";

const body = z.object({});

const responses = success({
  user_phone: userPhone
    .optional()
    .describe("The user's phone, masked; absent for a user with an authenticator app: nothing was sent"),
});

/**
 * spec 4.4: a new OTP to the user's primary phone; the token stays the same. A user with an
 * authenticator app is sent nothing: the app shows a new code every 30 seconds (docs/decisions.md, "TOTP").
 */
export const renewotp = defineEndpoint({
  operation: "renewotp",
  summary: "Send a new SMS one-time password",
  body,
  responses,
  examples: { request: {}, answers: [{ user_phone: answerExamples.checkotp.user_phone }] },
  errors: userStatusErrors,
  rateLimit: "address and login ID",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  return { user_phone: await sendLoginOtp(context, user, context.session.sessionId) };
}
