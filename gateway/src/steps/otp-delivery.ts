import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import type { FlowContext } from "../endpoint/context.js";
import type { StateName } from "../endpoint/states.js";
import { step } from "../endpoint/step.js";
import { type SessionStart, type StartedSession, startSessionThen } from "./session-moves.js";

/**
 * Sends a new OTP to the user's primary phone (a phone change's to the pending one, which the otp
 * service asks identity for); returns the masked phone for `user_phone`. The otp service caps the
 * sends (request.ratelimit.exceeded).
 */
export const sendOtp = step(
  ["auth.user.restricted", "request.ratelimit.exceeded"],
  async (context: FlowContext, user: User, sessionId: string, purpose: OtpPurpose): Promise<string> => {
    if (!user.phone && purpose !== OtpPurpose.PHONE_CHANGE)
      throw new AuthError("auth.user.restricted", { detail: "an SMS is needed but no phone" });
    const { maskedPhone } = await context.backends.otp.sendOtp({
      companyId: context.company.id,
      userId: user.id,
      sessionId,
      purpose,
      language: context.language,
    });
    return maskedPhone;
  },
);

/** A recovery session that waits for the SMS OTP sent with it. */
export function startSessionWithOtp(
  context: FlowContext,
  user: User,
  to: StateName,
  loginId: string,
  purpose: OtpPurpose,
  start: SessionStart = {},
): Promise<StartedSession & { userPhone: string }> {
  return startSessionThen(context, user, to, loginId, start, async ({ session }) => ({
    userPhone: await sendOtp(context, user, session.sessionId, purpose),
  }));
}
