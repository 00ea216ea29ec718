import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { sendOtp } from "../../steps/otp-delivery.js";
import { currentUser } from "../../steps/user-status.js";

const body = z.object({});

const responses = success({});

/** spec 4.12: a new recovery OTP to the user's primary phone; the token stays the same. */
export const recoveryRenewotp = defineEndpoint({
  operation: "recovery/renewotp",
  summary: "Send a new recovery SMS one-time password",
  body,
  responses,
  examples: { request: {}, answers: [{}] },
  steps: [currentUser, sendOtp],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  await sendOtp(context, user, context.session.sessionId, OtpPurpose.RECOVERY);
  return {};
}
