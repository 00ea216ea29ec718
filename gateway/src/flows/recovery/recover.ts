import { AuthError } from "@auth/errors";
import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import { securityEvent } from "../../security-events.js";
import { captchaPassed } from "../../steps/captcha.js";
import { lookUpLoginId } from "../../steps/login-lookup.js";
import { maskEmail } from "../../steps/mask-email.js";
import { startSessionWithOtp } from "../../steps/otp-delivery.js";
import { chooseRecoveryMethod } from "../../steps/recovery-methods.js";
import { startSession } from "../../steps/session-moves.js";
import { assertUserMayLogIn } from "../../steps/user-status.js";
import { openEndpoint } from "../endpoint.js";
import { fields } from "../fields.js";
import { assertTransition } from "../transitions.js";

const body = z.object({
  login_id: fields.loginId,
  captcha_response: z.string("must be a string").max(8_192),
  method: z.enum(["PHONE", "MAIL", "QUESTION"], "must be PHONE, MAIL or QUESTION").optional(),
});

/** spec 4.10: starts access recovery by phone OTP, control question or e-mail link. */
export const recover = openEndpoint("recovery/recover", body, async (context) => {
  // Always a captcha (docs/api-contract.md, "Recovery"), and before anything tells whether the
  // login ID exists.
  if (!(await captchaPassed(context, context.body.captcha_response)))
    throw new AuthError("auth.captcha.invalid");
  const { normalizedLoginId, user } = await lookUpLoginId(context, context.body.login_id);
  if (!user) throw new AuthError("auth.loginid.notfound");
  assertUserMayLogIn(user);
  const method = chooseRecoveryMethod(context.company, user, context.body.method);
  securityEvent(context, "recovery.started", { userId: user.id, method });

  switch (method) {
    case "PHONE": {
      const started = await startSessionWithOtp(
        context,
        user,
        "recovery-checkotp",
        normalizedLoginId,
        OtpPurpose.RECOVERY,
      );
      return {
        verification: "PHONE",
        session_token: started.token,
        session_state: "recovery-checkotp",
        user_phone: started.userPhone,
      };
    }
    case "QUESTION": {
      const started = await startSession(context, user, "recovery-checkquestion", normalizedLoginId);
      return {
        verification: "QUESTION",
        session_token: started.token,
        session_state: "recovery-checkquestion",
        control_question: user.controlQuestion ?? "",
      };
    }
    case "MAIL": {
      assertTransition(context.operation, null, null);
      await context.backends.recovery.sendRecoveryLink({
        companyId: context.company.id,
        userId: user.id,
        loginId: normalizedLoginId,
      });
      return { verification: "MAIL", user_email: maskEmail(user.email ?? "") };
    }
  }
});
