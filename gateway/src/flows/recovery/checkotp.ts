import { AuthError } from "@auth/errors";
import { SecretKind } from "@auth/proto/session";
import { z } from "zod";
import { passwordFields } from "../../steps/next-step.js";
import { otpValid } from "../../steps/otp-delivery.js";
import { reserveCheck, wrongSecret } from "../../steps/secret-checks.js";
import { moveSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";
import { sessionEndpoint } from "../endpoint.js";
import { fields } from "../fields.js";

/** spec 4.11: the recovery OTP; a wrong one is burnt like at login. */
export const recoveryCheckotp = sessionEndpoint(
  "recovery/checkotp",
  z.object({ otp: fields.secret }),
  async (context) => {
    const user = await currentUser(context, context.session.userId);
    const check = await reserveCheck(
      context,
      { subject: { userId: user.id }, kind: SecretKind.OTP },
      wrongSecret("auth.otp.invalid"),
    );
    const { found: valid } = await check.run(
      () => otpValid(context, context.body.otp),
      (right) => right,
    );
    if (!valid) throw new AuthError("auth.otp.invalid");
    const moved = await moveSession(context, "recovery-setpassword");
    return { session_token: moved.token, session_state: "recovery-setpassword", ...passwordFields(context) };
  },
);
