import { AuthError } from "@auth/errors";
import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { afterPassword, answerExamples, type SuccessFields } from "../endpoint/responses.js";
import { moveToSecondFactors } from "../factors/second-factors.js";
import { assertAllAccepted, recordAcceptance, sessionDisclaimers } from "../steps/disclaimers.js";
import { continueAfterFirstFactor } from "../steps/next-step.js";
import { checkSessionPassword } from "../steps/password-check.js";
import { passwordCheckRefusal } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";

const body = z.object({
  password: fields.secret(),
  captcha_response: fields.captchaResponse,
  accept_disclaimers: fields.acceptDisclaimers,
});

const responses = afterPassword();

/** spec 4.2: the password of the session's user. */
export const checkpassword = defineEndpoint({
  operation: "checkpassword",
  summary: "Check the password",
  body,
  responses,
  examples: {
    request: { password: "correct horse battery staple", accept_disclaimers: ["terms"] },
    answers: [answerExamples.checkotp, answerExamples.setpassword, answerExamples.authorized],
  },
  steps: [
    assertAllAccepted,
    passwordCheckRefusal,
    checkSessionPassword,
    assertUserMayLogIn,
    recordAcceptance,
    continueAfterFirstFactor,
    moveToSecondFactors,
  ],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const { userId } = context.session;
  // A login without a login ID (auth/passkeys/start) has no user whose password to check.
  if (!userId) throw new AuthError("auth.session.invalid", { detail: "the session takes a passkey" });
  const captchaResponse = context.body.captcha_response;
  const disclaimersRequired = sessionDisclaimers(context);
  try {
    assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  } catch (error) {
    // The order of docs/decisions.md ("Login"): suspension and lock-out, captcha, disclaimers, password.
    await passwordCheckRefusal(context, userId, captchaResponse);
    throw error;
  }

  return checkSessionPassword(
    context,
    { userId, password: context.body.password, captchaResponse },
    async (user, rightCheckId, verdict) => {
      // The user as it is now (an administrator may have closed the account since the login).
      assertUserMayLogIn(user);
      await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
      return continueAfterFirstFactor(context, {
        user,
        passwordChangeRequired: verdict.passwordChangeRequired,
        move: (to, changes) => moveSession(context, to, { ...changes, rightCheckId }),
        toSecondFactor: (changes) =>
          moveToSecondFactors(context, user, () =>
            moveSession(context, "checkotp", { ...changes, rightCheckId }),
          ),
      });
    },
  );
}
