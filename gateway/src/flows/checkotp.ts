import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import { SecretKind } from "@auth/proto/session";
import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import {
  answerExamples,
  type SuccessFields,
  toAuthorized,
  toSetpassword,
  userStatusErrors,
} from "../endpoint/responses.js";
import { assertAllAccepted, recordAcceptance, sessionDisclaimers } from "../steps/disclaimers.js";
import { continueToAuthorization } from "../steps/next-step.js";
import { otpValid } from "../steps/otp-check.js";
import { loginRefusal, reserveCheck } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { currentUser } from "../steps/user-status.js";

const body = z
  .object({
    otp: fields.secret.optional(),
    backup_code: fields.secret.optional(),
    accept_disclaimers: fields.acceptDisclaimers,
  })
  .refine(
    (b) => (b.otp === undefined) !== (b.backup_code === undefined),
    "exactly one of otp and backup_code",
  )
  .describe("Exactly one of otp and backup_code");

type Body = z.infer<typeof body>;

/** The second factor: the session's SMS OTP (burnt by any attempt) or one of the user's backup codes (single use). */
async function secondFactorValid(context: SessionFlowContext<Body>, userId: string): Promise<boolean> {
  if (context.body.otp !== undefined) return otpValid(context, context.body.otp);
  const { valid } = await context.backends.identity.useBackupCode({
    companyId: context.company.id,
    userId,
    backupCode: context.body.backup_code ?? "",
  });
  return valid;
}

const responses = z.discriminatedUnion("session_state", [toSetpassword(), toAuthorized()]);

/** spec 4.3: the SMS OTP, or a backup code when the phone is not at hand. */
export const checkotp = defineEndpoint({
  operation: "checkotp",
  summary: "Check the SMS one-time password or a backup code",
  body,
  responses,
  examples: {
    request: { otp: "482913" },
    answers: [answerExamples.setpassword, answerExamples.authorized],
  },
  errors: [
    "auth.restricted",
    ...userStatusErrors,
    "auth.disclaimer.invalid",
    "auth.otp.invalid",
    "auth.backupcode.invalid",
  ],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const { userId } = context.session;
  const otp = context.body.otp !== undefined;
  // The order of docs/api-contract.md ("Login"): lock-out, the user's status, disclaimers, the secret. The check is
  // reserved first (its refusal is the lock-out) and given back if the user or the disclaimers fail:
  // a missing code must never burn the OTP.
  const check = await reserveCheck(
    context,
    { subject: { userId }, kind: otp ? SecretKind.OTP : SecretKind.BACKUP_CODE },
    loginRefusal,
  );
  const disclaimersRequired = sessionDisclaimers(context);
  let user: User;
  try {
    user = await currentUser(context, userId);
    assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  } catch (error) {
    await check.giveBack();
    throw error;
  }

  const answer = await check.runBeforeMove(
    () => secondFactorValid(context, user.id),
    (valid) => valid || undefined,
    async (_, rightCheckId) => {
      await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
      return continueToAuthorization(context, user, context.session.passwordChangeRequired, (to, changes) =>
        moveSession(context, to, { ...changes, rightCheckId }),
      );
    },
  );
  if (!answer) throw new AuthError(otp ? "auth.otp.invalid" : "auth.backupcode.invalid");
  return answer;
}
