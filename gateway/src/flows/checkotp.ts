import { AuthError } from "@auth/errors";
import { z } from "zod";
import { assertAllAccepted, recordAcceptance, requiredDisclaimers } from "../steps/disclaimers.js";
import { forgetFailures, guardLoginId, recordFailedSecret } from "../steps/login-guard.js";
import { continueToAuthorization } from "../steps/next-step.js";
import { otpValid } from "../steps/otp-delivery.js";
import { moveSession } from "../steps/session-moves.js";
import { currentUser } from "../steps/user-status.js";
import { type SessionFlowContext, sessionEndpoint } from "./endpoint.js";
import { fields } from "./fields.js";

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

/** spec 4.3: the SMS OTP, or a backup code when the phone is not at hand. */
export const checkotp = sessionEndpoint("checkotp", body, async (context) => {
  const { loginId, userId } = context.session;
  const failures = await guardLoginId(context, loginId);
  const user = await currentUser(context, userId);
  // Disclaimers before the secret (DESIGN.md): a missing code must never burn the OTP.
  const disclaimersRequired = await requiredDisclaimers(context, user.id);
  assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);

  if (!(await secondFactorValid(context, user.id))) {
    await recordFailedSecret(context, loginId);
    throw new AuthError(context.body.otp !== undefined ? "auth.otp.invalid" : "auth.backupcode.invalid");
  }
  await forgetFailures(context, loginId, failures);
  await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
  return continueToAuthorization(context, user, context.session.passwordChangeRequired, (to, changes) =>
    moveSession(context, to, changes),
  );
});
