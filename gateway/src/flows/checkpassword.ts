import { AuthError } from "@auth/errors";
import { SecretKind } from "@auth/proto/session";
import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { afterPassword, answerExamples, type SuccessFields } from "../endpoint/responses.js";
import { moveToSecondFactors } from "../factors/second-factors.js";
import { assertAllAccepted, recordAcceptance, sessionDisclaimers } from "../steps/disclaimers.js";
import { continueAfterFirstFactor } from "../steps/next-step.js";
import { afterCheck, loginRefusal, reserveCheck } from "../steps/secret-checks.js";
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
    loginRefusal,
    afterCheck,
    assertUserMayLogIn,
    recordAcceptance,
    continueAfterFirstFactor,
    moveToSecondFactors,
  ],
  errors: ["auth.password.invalid"],
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
    // The order of docs/decisions.md ("Login"): suspension and lock-out, captcha, disclaimers,
    // password. A check is reserved for the lock-out's and the captcha's refusals, then given back.
    const check = await reserveCheck(
      context,
      { subject: { userId }, kind: SecretKind.PASSWORD, captchaResponse },
      loginRefusal,
    );
    await check.giveBack();
    throw error;
  }

  const verdict = await context.backends.identity.verifyPassword({
    companyId: context.company.id,
    userId,
    password: context.body.password,
    captchaResponse,
    clientAddress: context.clientAddress,
    sessionToken: context.token,
  });
  const answer = await afterCheck(
    context,
    verdict.check,
    verdict.valid ? verdict.user : undefined,
    async (user, rightCheckId) => {
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
  if (!answer) {
    throw new AuthError("auth.password.invalid", {
      fields: { captcha_required: verdict.check?.captchaRequired },
    });
  }
  return answer;
}
