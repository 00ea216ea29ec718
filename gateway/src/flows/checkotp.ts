import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { answerExamples, type SuccessFields, toAuthorized, toSetpassword } from "../endpoint/responses.js";
import type { AnswerField } from "../factors/second-factor.js";
import { factorAnswering, secondFactors } from "../factors/second-factors.js";
import {
  assertAllAccepted,
  type DisclaimerObject,
  recordAcceptance,
  sessionDisclaimers,
} from "../steps/disclaimers.js";
import { continueToAuthorization } from "../steps/next-step.js";
import { afterCheck, guardLockout } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { assertUserMayLogIn, sessionUser } from "../steps/user-status.js";

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
 * answer is the user's factors' affair (docs/decisions.md, "Second factors").
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
  steps: [sessionUser, guardLockout, assertUserMayLogIn, assertAllAccepted, afterCheck, recordAcceptance],
  errors: secondFactors.map((factor) => factor.wrongAnswer),
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

/**
 * The order of docs/decisions.md ("Login"): suspension and the lock-out of the answer's kind, the
 * user's status, the disclaimers (a missing code never burns a code), then the answer, checked under
 * the user's budget of its kind.
 */
async function handle(context: SessionFlowContext<Body>): Promise<SuccessFields<typeof responses>> {
  const user = await sessionUser(context, context.session.userId);
  const { field, answer } = answerOf(context.body);
  const { factor, owned } = factorAnswering(user, field);
  await guardLockout(context, { userId: user.id }, factor.secretKind);
  assertUserMayLogIn(user);
  const disclaimersRequired = sessionDisclaimers(context);
  assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  // A factor the user does not have has nothing to compare.
  if (!owned) throw new AuthError(factor.wrongAnswer, { detail: "the user has no such second factor" });

  const verdict = await factor.verify(context, user, answer);
  const authorized = await afterCheck(
    context,
    verdict.check,
    verdict.valid ? user : undefined,
    (_, rightCheckId) => authorize(context, user, disclaimersRequired, rightCheckId),
    factor.secretKind,
  );
  if (!authorized) throw new AuthError(factor.wrongAnswer);
  return authorized;
}

/** After a right second factor: the disclaimers accepted, then setpassword or authorized. */
async function authorize(
  context: SessionFlowContext<Body>,
  user: User,
  disclaimersRequired: DisclaimerObject[],
  rightCheckId: string,
): Promise<SuccessFields<typeof responses>> {
  await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
  return continueToAuthorization(context, user, context.session.passwordChangeRequired, (to, changes) =>
    moveSession(context, to, { ...changes, rightCheckId }),
  );
}
