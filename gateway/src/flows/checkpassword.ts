import { AuthError } from "@auth/errors";
import { z } from "zod";
import { checkCaptcha } from "../steps/captcha.js";
import { assertAllAccepted, recordAcceptance, requiredDisclaimers } from "../steps/disclaimers.js";
import { captchaRequired, forgetFailures, guardLoginId, recordFailedSecret } from "../steps/login-guard.js";
import { continueAfterPassword } from "../steps/next-step.js";
import { sendOtp } from "../steps/otp-delivery.js";
import { moveSession } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";
import { sessionEndpoint } from "./endpoint.js";
import { fields } from "./fields.js";

const body = z.object({
  password: fields.secret,
  captcha_response: fields.captchaResponse,
  accept_disclaimers: fields.acceptDisclaimers,
});

/** spec 4.2: the password of the session's user. */
export const checkpassword = sessionEndpoint("checkpassword", body, async (context) => {
  const { loginId, userId } = context.session;
  const failures = await guardLoginId(context, loginId);
  await checkCaptcha(context, failures, context.body.captcha_response);
  // Disclaimers before the secret (DESIGN.md), so a missing code costs no attempt.
  const disclaimersRequired = await requiredDisclaimers(context, userId);
  assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);

  const verdict = await context.backends.identity.verifyPassword({
    companyId: context.company.id,
    userId,
    password: context.body.password,
  });
  const { user } = verdict;
  if (!verdict.valid || !user) {
    const failuresNow = await recordFailedSecret(context, loginId);
    throw new AuthError("auth.password.invalid", {
      fields: { captcha_required: captchaRequired(context, failuresNow) },
    });
  }
  // The user as it is now (an administrator may have closed the account since the login).
  assertUserMayLogIn(user);
  await forgetFailures(context, loginId, failures);
  await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
  return continueAfterPassword(context, {
    user,
    passwordChangeRequired: verdict.passwordChangeRequired,
    move: (to, changes) => moveSession(context, to, changes),
    // The OTP goes out before the move, so that a failed send leaves the session as it was.
    toSecondFactor: async (changes) => {
      const userPhone = await sendOtp(context, user, context.session.sessionId);
      return { ...(await moveSession(context, "checkotp", changes)), userPhone };
    },
  });
});
