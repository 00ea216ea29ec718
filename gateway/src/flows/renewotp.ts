import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { answerExamples, type SuccessFields, secondFactorChallenge, success } from "../endpoint/responses.js";
import { challengeSecondFactors } from "../factors/second-factors.js";
import { toldOf } from "../steps/next-step.js";
import { currentUser } from "../steps/user-status.js";

const body = z.object({});

const { user_phone, passkey_options } = secondFactorChallenge();
const responses = success({
  user_phone: user_phone.describe(
    "The user's phone, masked; absent when the user's second factor sends nothing (an authenticator app, a passkey)",
  ),
  passkey_options: passkey_options.describe(
    "A new challenge for the user's passkey, replacing the one before (docs/decisions.md, Passkeys)",
  ),
});

/**
 * spec 4.4: a new OTP to the user's primary phone; the token stays the same. The user's second
 * factors are challenged again: one that sends nothing (an authenticator app, which shows a new code
 * every 30 seconds) sends nothing, and a passkey gets a new challenge (docs/decisions.md, "Second
 * factors").
 */
export const renewotp = defineEndpoint({
  operation: "renewotp",
  summary: "Send a new SMS one-time password",
  body,
  responses,
  examples: { request: {}, answers: [{ user_phone: answerExamples.checkotp.user_phone }] },
  steps: [currentUser, challengeSecondFactors],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  const told = await challengeSecondFactors(context, user, {
    sessionId: context.session.sessionId,
    token: context.token,
  });
  return toldOf(told);
}
