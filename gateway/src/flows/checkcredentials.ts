import { AuthError } from "@auth/errors";
import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import { checkCaptcha } from "../steps/captcha.js";
import { assertAllAccepted, recordAcceptance, requiredDisclaimers } from "../steps/disclaimers.js";
import { captchaRequired, forgetFailures, guardLoginId, recordFailedSecret } from "../steps/login-guard.js";
import { lookUpLoginId } from "../steps/login-lookup.js";
import { continueAfterPassword } from "../steps/next-step.js";
import { startSessionWithOtp } from "../steps/otp-delivery.js";
import { startSession } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";
import { openEndpoint } from "./endpoint.js";
import { fields } from "./fields.js";

const body = z.object({
  login_id: fields.loginId,
  password: fields.secret,
  captcha_response: fields.captchaResponse,
  accept_disclaimers: fields.acceptDisclaimers,
});

/**
 * spec 4.6: login ID and password in one call. Whether the login ID exists is never told: an
 * unknown one costs the same hashing and gets the same answer, and the user's status and
 * disclaimers are looked at only once the credentials are right (DESIGN.md).
 */
export const checkcredentials = openEndpoint("checkcredentials", body, async (context) => {
  const companyId = context.company.id;
  const { normalizedLoginId } = await lookUpLoginId(context, context.body.login_id);
  const failures = await guardLoginId(context, normalizedLoginId);
  await checkCaptcha(context, failures, context.body.captcha_response);

  const verdict = await context.backends.identity.verifyCredentials({
    companyId,
    loginId: context.body.login_id,
    password: context.body.password,
  });
  const { user } = verdict;
  if (!user) {
    const failuresNow = await recordFailedSecret(context, normalizedLoginId);
    throw new AuthError("auth.credentials.invalid", {
      fields: { captcha_required: captchaRequired(context, failuresNow) },
    });
  }
  assertUserMayLogIn(user);
  await forgetFailures(context, normalizedLoginId, failures);
  const disclaimersRequired = await requiredDisclaimers(context, user.id);
  assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
  return continueAfterPassword(context, {
    user,
    passwordChangeRequired: verdict.passwordChangeRequired,
    move: (to, changes) => startSession(context, user, to, normalizedLoginId, changes),
    toSecondFactor: (changes) =>
      startSessionWithOtp(context, user, "checkotp", normalizedLoginId, OtpPurpose.LOGIN, changes),
  });
});
