import { AuthError } from "@auth/errors";
import { z } from "zod";
import { recoverySecretValid } from "../../steps/login-guard.js";
import { passwordFields } from "../../steps/next-step.js";
import { otpValid } from "../../steps/otp-delivery.js";
import { moveSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";
import { sessionEndpoint } from "../endpoint.js";
import { fields } from "../fields.js";

/** spec 4.11: the recovery OTP; a wrong one is burnt like at login. */
export const recoveryCheckotp = sessionEndpoint(
  "recovery/checkotp",
  z.object({ otp: fields.secret }),
  async (context) => {
    await currentUser(context, context.session.userId);
    if (
      !(await recoverySecretValid(context, context.session.loginId, () =>
        otpValid(context, context.body.otp),
      ))
    ) {
      throw new AuthError("auth.otp.invalid");
    }
    const moved = await moveSession(context, "recovery-setpassword");
    return { session_token: moved.token, session_state: "recovery-setpassword", ...passwordFields(context) };
  },
);
