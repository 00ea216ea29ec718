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
import { sendOtp } from "../steps/otp-delivery.js";
import { currentUser } from "../steps/user-status.js";

const body = z.object({});

const responses = success({ user_phone: userPhone });

/** spec 4.4: a new OTP to the user's primary phone; the token stays the same. */
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
  return { user_phone: await sendOtp(context, user, context.session.sessionId) };
}
