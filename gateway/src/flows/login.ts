import { AuthError } from "@auth/errors";
import { UserStatus } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import { requiredDisclaimers } from "../steps/disclaimers.js";
import { lookUpLoginId } from "../steps/login-lookup.js";
import { startSessionWithOtp } from "../steps/otp-delivery.js";
import { guardSubject, subjectOf } from "../steps/secret-checks.js";
import { startSession } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";
import { openEndpoint } from "./endpoint.js";
import { fields } from "./fields.js";

/**
 * spec 4.1: identify the user by login ID and start a session. The lock-out comes before
 * auth.loginid.notfound and the user's status; for a user who may log in, the session service
 * checks it while it creates the session.
 */
export const login = openEndpoint("login", z.object({ login_id: fields.loginId }), async (context) => {
  const { normalizedLoginId, user } = await lookUpLoginId(context, context.body.login_id);
  if (user?.status !== UserStatus.ACTIVE) {
    await guardSubject(context, subjectOf(user, normalizedLoginId));
    if (!user) throw new AuthError("auth.loginid.notfound");
    assertUserMayLogIn(user);
  }
  const disclaimersRequired = await requiredDisclaimers(context, user.id);
  // The session carries the disclaimers to the next step, which need not read them again.
  const guard = { refuseWhenLockedOut: true, disclaimersRequired };

  if (user.hasPassword) {
    const started = await startSession(context, user, "checkpassword", normalizedLoginId, guard);
    return {
      session_token: started.token,
      session_state: "checkpassword",
      disclaimers_required: disclaimersRequired,
      captcha_required: started.captchaRequired,
    };
  }
  const started = await startSessionWithOtp(context, user, "checkotp", normalizedLoginId, OtpPurpose.LOGIN, {
    passwordChangeRequired: user.passwordChangeRequired,
    ...guard,
  });
  return {
    session_token: started.token,
    session_state: "checkotp",
    disclaimers_required: disclaimersRequired,
    user_phone: started.userPhone,
  };
});
