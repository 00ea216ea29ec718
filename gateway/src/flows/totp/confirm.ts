import { AuthError } from "@auth/errors";
import { CheckOutcome } from "@auth/proto/session";
import { z } from "zod";
import { backupCodeExamples, firstBackupCodes, firstBackupCodesOf } from "../../endpoint/backup-codes.js";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { authenticatorApp } from "../../factors/authenticator-app.js";
import { owns } from "../../factors/second-factors.js";
import { userChangingFactors } from "../../steps/factor-change.js";
import { loginRefusal } from "../../steps/secret-checks.js";

const body = z.object({
  code: fields.secret().describe("A code the new authenticator app shows for the new secret"),
  current_code: fields
    .secret()
    .optional()
    .describe("A code of the authenticator app the user has now: required to replace it"),
});

const responses = success({
  sessions_ended: z.number().int().describe("How many of the user's other sessions ended"),
  backup_codes: firstBackupCodes(),
});

/**
 * Beyond the spec (docs/api-contract.md, "Authenticator app"): the signed-in user proves a code of
 * the pending secret, which becomes the login's second factor, with the user's first backup codes
 * when the user has none; the user's other sessions end, as after any change of an authenticator
 * (ASVS 5.0 7.4.3), and this one goes on. An app replaces the user's app only with a code of that
 * app, checked by identity under the user's budget of app codes (docs/security.md, "Changing a
 * factor").
 */
export const totpConfirm = defineEndpoint({
  operation: "totp/confirm",
  summary: "Confirm the authenticator app with one of its codes",
  body,
  responses,
  examples: {
    request: { code: "492039" },
    answers: [{ sessions_ended: 1, backup_codes: backupCodeExamples }],
  },
  steps: [userChangingFactors, loginRefusal],
  errors: ["auth.otp.invalid"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await userChangingFactors(context);
  if (owns(user, authenticatorApp) && context.body.current_code === undefined) {
    throw new AuthError("request.validation.failed", {
      detail: "current_code: a code of the authenticator app the user has is needed to replace it",
    });
  }
  const confirmed = await context.backends.identity.confirmTotpEnrolment({
    companyId: context.company.id,
    userId: user.id,
    code: context.body.code,
    currentCode: context.body.current_code,
    clientAddress: context.clientAddress,
    sessionToken: context.token,
  });
  const currentCheck = confirmed.currentCheck;
  if (currentCheck && currentCheck.outcome !== CheckOutcome.ALLOWED)
    throw loginRefusal(currentCheck.outcome, currentCheck.retryAfterSeconds);
  if (confirmed.currentCodeRefused)
    throw new AuthError("auth.otp.invalid", { detail: "not a code of the current authenticator app" });
  if (!confirmed.enrolled)
    throw new AuthError("auth.otp.invalid", { detail: "not a code of the pending secret" });
  const { ended } = await context.backends.session.endOwnSessions({
    sessionToken: context.token,
    others: true,
  });
  return { sessions_ended: ended, backup_codes: firstBackupCodesOf(confirmed.backupCodes) };
}
