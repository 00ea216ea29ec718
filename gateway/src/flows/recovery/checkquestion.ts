import { AuthError } from "@auth/errors";
import { SecretKind } from "@auth/proto/session";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { answerExamples, type SuccessFields, toRecoverySetpassword } from "../../endpoint/responses.js";
import { passwordFields } from "../../steps/next-step.js";
import { reserveCheck, wrongSecret } from "../../steps/secret-checks.js";
import { moveSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";

const body = z.object({ control_answer: fields.secret() });

const responses = toRecoverySetpassword();

const wrongAnswer = wrongSecret("auth.controlanswer.invalid");

/**
 * spec 4.13 with docs/decisions.md ("Recovery"): the answer to the control question, in state recovery-checkquestion. The
 * session service gives a recovery session 3 answers, and ends it with the third wrong one; an
 * answer past them, or while the user is locked out, is auth.controlanswer.invalid like a wrong one.
 */
export const checkquestion = defineEndpoint({
  operation: "recovery/checkquestion",
  summary: "Check the answer to the control question",
  body,
  responses,
  examples: {
    request: { control_answer: "Hillside Primary" },
    answers: [answerExamples.recoverySetpassword],
  },
  steps: [currentUser, wrongAnswer],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  const check = await reserveCheck(
    context,
    { subject: { userId: user.id }, kind: SecretKind.CONTROL_ANSWER },
    wrongAnswer,
  );
  const verdict = await check.run(
    () =>
      context.backends.identity.verifyControlAnswer({
        companyId: context.company.id,
        userId: user.id,
        answer: context.body.control_answer,
      }),
    (found) => found.valid,
  );
  if (!verdict.valid) {
    throw new AuthError("auth.controlanswer.invalid");
  }
  const moved = await moveSession(context, "recovery-setpassword");
  return {
    session_token: moved.token,
    session_state: "recovery-setpassword",
    ...passwordFields(context, user, false),
  };
}
