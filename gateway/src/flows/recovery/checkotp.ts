import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { answerExamples, type SuccessFields, toRecoverySetpassword } from "../../endpoint/responses.js";
import { passwordFields } from "../../steps/next-step.js";
import { assertOtpInSession } from "../../steps/otp-check.js";
import { wrongSecret } from "../../steps/secret-checks.js";
import { moveSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";

const body = z.object({ otp: fields.secret() });

const responses = toRecoverySetpassword();

const wrongOtp = wrongSecret("auth.otp.invalid");

/** spec 4.11: the recovery OTP; a wrong one is burnt like at login. */
export const recoveryCheckotp = defineEndpoint({
  operation: "recovery/checkotp",
  summary: "Check the recovery SMS one-time password",
  body,
  responses,
  examples: { request: { otp: "482913" }, answers: [answerExamples.recoverySetpassword] },
  steps: [currentUser, wrongOtp],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  await assertOtpInSession(context, user.id, context.body.otp, wrongOtp);
  const moved = await moveSession(context, "recovery-setpassword");
  return {
    session_token: moved.token,
    session_state: "recovery-setpassword",
    ...passwordFields(context, user, false),
  };
}
