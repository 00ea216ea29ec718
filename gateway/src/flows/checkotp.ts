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
import { afterIdentityCheck, guardSubject, loginRefusal, reserveCheck } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { assertUserMayLogIn, sessionUser } from "../steps/user-status.js";

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

/** The SMS second factor: the session's OTP (burnt by any attempt) or one of the user's backup codes (single use). */
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

/**
 * spec 4.3: the SMS OTP, or a backup code when the phone is not at hand. For a user with an
 * authenticator app, `otp` takes its TOTP code (docs/decisions.md, "TOTP").
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

async function handle(context: SessionFlowContext<Body>): Promise<SuccessFields<typeof responses>> {
  const user = await sessionUser(context, context.session.userId);
  const disclaimersRequired = sessionDisclaimers(context);
  if (context.body.otp !== undefined && user.totpEnrolled)
    return checkTotp(context, user, context.body.otp, disclaimersRequired);
  const otp = context.body.otp !== undefined;
  // The order of docs/api-contract.md ("Login"): lock-out, the user's status, disclaimers, the secret. The check is
  // reserved first (its refusal is the lock-out) and given back if the user or the disclaimers fail:
  // a missing code must never burn the OTP.
  const check = await reserveCheck(
    context,
    { subject: { userId: user.id }, kind: otp ? SecretKind.OTP : SecretKind.BACKUP_CODE },
    loginRefusal,
  );
  try {
    assertUserMayLogIn(user);
    assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  } catch (error) {
    await check.giveBack();
    throw error;
  }

  const answer = await check.runBeforeMove(
    () => secondFactorValid(context, user.id),
    (valid) => valid || undefined,
    (_, rightCheckId) => authorize(context, user, disclaimersRequired, rightCheckId),
  );
  if (!answer) throw new AuthError(otp ? "auth.otp.invalid" : "auth.backupcode.invalid");
  return answer;
}

/**
 * The authenticator app's code, in the same order of checks; identity reserves the check in the
 * user's OTP budget before it compares the code (docs/security.md, "Guesses per hour").
 */
async function checkTotp(
  context: SessionFlowContext<Body>,
  user: User,
  code: string,
  disclaimersRequired: ReturnType<typeof sessionDisclaimers>,
): Promise<SuccessFields<typeof responses>> {
  await guardSubject(context, { userId: user.id });
  assertUserMayLogIn(user);
  assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  const verdict = await context.backends.identity.verifyTotp({
    companyId: context.company.id,
    userId: user.id,
    code,
    clientAddress: context.clientAddress,
  });
  const answer = await afterIdentityCheck(
    context,
    verdict.check,
    verdict.valid ? user : undefined,
    (_, rightCheckId) => authorize(context, user, disclaimersRequired, rightCheckId),
    SecretKind.OTP,
  );
  if (!answer) throw new AuthError("auth.otp.invalid");
  return answer;
}

/** After a right second factor: the disclaimers accepted, then setpassword or authorized. */
async function authorize(
  context: SessionFlowContext<Body>,
  user: User,
  disclaimersRequired: ReturnType<typeof sessionDisclaimers>,
  rightCheckId: string,
): Promise<SuccessFields<typeof responses>> {
  await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
  return continueToAuthorization(context, user, context.session.passwordChangeRequired, (to, changes) =>
    moveSession(context, to, { ...changes, rightCheckId }),
  );
}
