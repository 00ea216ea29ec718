import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { answerExamples, type SuccessFields, toAuthorized, toSetpassword } from "../endpoint/responses.js";
import type { AnswerField } from "../factors/second-factor.js";
import { factorAnswering, secondFactors } from "../factors/second-factors.js";
import { passSecondFactor } from "../steps/second-factor-check.js";
import { sessionUser } from "../steps/user-status.js";

const body = z
  .object({
    otp: fields.secret().optional(),
    backup_code: fields.secret().optional(),
    accept_disclaimers: fields.acceptDisclaimers,
  })
  .refine(
    (b) => (b.otp === undefined) !== (b.backup_code === undefined),
    "exactly one of otp and backup_code",
  )
  .describe("Exactly one of otp and backup_code");

type Body = z.infer<typeof body>;

const responses = z.discriminatedUnion("session_state", [toSetpassword(), toAuthorized()]);

/**
 * spec 4.3: the second factor. `otp` takes the SMS code, or the code of the user's authenticator app
 * (docs/decisions.md, "TOTP"); `backup_code` one of the user's backup codes. Which unit checks an
 * answer is the user's factors' affair (docs/decisions.md, "Second factors"); a passkey's
 * assertion comes to auth/checkpasskey.
 */
export const checkotp = defineEndpoint({
  operation: "checkotp",
  summary: "Check the one-time password (SMS or authenticator app) or a backup code",
  body,
  responses,
  examples: {
    request: { otp: "482913" },
    answers: [answerExamples.setpassword, answerExamples.authorized],
  },
  steps: [sessionUser, passSecondFactor],
  errors: secondFactors.flatMap((factor) => (factor.field ? [factor.wrongAnswer] : [])),
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

/** The answer of the request: which field, and what it says. */
function answerOf(body: Body): { field: AnswerField; answer: string } {
  return body.otp !== undefined
    ? { field: "otp", answer: body.otp }
    : { field: "backup_code", answer: body.backup_code ?? "" };
}

async function handle(context: SessionFlowContext<Body>): Promise<SuccessFields<typeof responses>> {
  const user = await sessionUser(context, context.session.userId);
  const { field, answer } = answerOf(context.body);
  return passSecondFactor(context, user, factorAnswering(user, field), answer);
}
