import type { User } from "@auth/proto/identity";
import type { FlowContext, ResponseFields } from "../flows/endpoint.js";
import type { StateName } from "../flows/states.js";
import { sendOtp } from "./otp-delivery.js";
import type { MovedSession, SessionChanges } from "./session-moves.js";

/** The fields that come with state setpassword and recovery-setpassword (spec 2.4). */
export function passwordFields(context: FlowContext): ResponseFields {
  return {
    password_regex: context.company.policy.passwordRegex ?? null,
    password_regex_description: context.company.policy.passwordRegexDescription ?? null,
  };
}

export interface FirstFactorOutcome {
  user: User;
  passwordChangeRequired: boolean;
  /** The session the step runs in: its id for the OTP, before it is moved on. */
  sessionId?: string;
  move(to: StateName, changes?: SessionChanges): Promise<MovedSession>;
}

/**
 * spec section 3 after a password: the second factor if required (the OTP is sent before the
 * move, so a failed send leaves the session as it was), else a new password if one must be set,
 * else authorized.
 */
export async function continueAfterPassword(
  context: FlowContext,
  outcome: FirstFactorOutcome,
): Promise<ResponseFields> {
  const { user } = outcome;
  if (user.secondFactorRequired) {
    if (outcome.sessionId) {
      const userPhone = await sendOtp(context, user, outcome.sessionId);
      const moved = await outcome.move("checkotp", {
        passwordChangeRequired: outcome.passwordChangeRequired,
      });
      return { session_token: moved.token, session_state: "checkotp", user_phone: userPhone };
    }
    const moved = await outcome.move("checkotp", { passwordChangeRequired: outcome.passwordChangeRequired });
    const userPhone = await sendOtp(context, user, moved.session.sessionId).catch(async (error: unknown) => {
      await context.backends.session.revokeSession({ sessionToken: moved.token });
      throw error;
    });
    return { session_token: moved.token, session_state: "checkotp", user_phone: userPhone };
  }
  return continueToAuthorization(context, user, outcome.passwordChangeRequired, outcome.move);
}

/** spec section 3 after the last factor: setpassword when a new password must be set, else authorized. */
export async function continueToAuthorization(
  context: FlowContext,
  user: User,
  passwordChangeRequired: boolean,
  move: FirstFactorOutcome["move"],
): Promise<ResponseFields> {
  if (passwordChangeRequired) {
    const moved = await move("setpassword", { passwordChangeRequired: true });
    return { session_token: moved.token, session_state: "setpassword", ...passwordFields(context) };
  }
  const moved = await move("authorized", { profileMnemocode: user.profileMnemocode });
  return {
    session_token: moved.token,
    session_state: "authorized",
    profile_mnemocode: user.profileMnemocode,
  };
}
