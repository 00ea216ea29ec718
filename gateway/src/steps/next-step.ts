import type { User } from "@auth/proto/identity";
import type { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import type { AnswerLeadingTo, passwordRules } from "../endpoint/responses.js";
import type { StateName } from "../endpoint/states.js";
import { describePasswordRules } from "./password-rules.js";
import type { MovedSession, SessionChanges } from "./session-moves.js";

/**
 * The fields that come with state setpassword and recovery-setpassword (spec 2.4): the company's
 * regex, and the description of every rule this user's new password must meet.
 */
export function passwordFields(context: FlowContext, user: User): z.output<typeof passwordRules> {
  return {
    password_regex: context.company.policy.passwordRegex ?? null,
    password_regex_description: describePasswordRules(context.company.policy, user),
  };
}

export interface FirstFactorOutcome {
  user: User;
  passwordChangeRequired: boolean;
  /** Moves (or starts) the session in the given state. */
  move(to: StateName, changes?: SessionChanges): Promise<MovedSession>;
  /** Moves (or starts) the session in checkotp and sends the OTP (none to a user with an authenticator app). */
  toSecondFactor(changes: SessionChanges): Promise<MovedSession & { userPhone?: string }>;
}

/**
 * spec section 3 after a password: the second factor if required (always for a user with an
 * authenticator app, docs/decisions.md, "TOTP"), else a new password if one must be set, else authorized. */
export async function continueAfterPassword(
  context: FlowContext,
  outcome: FirstFactorOutcome,
): Promise<AnswerLeadingTo<"checkotp" | "setpassword" | "authorized">> {
  if (outcome.user.secondFactorRequired || outcome.user.totpEnrolled) {
    const moved = await outcome.toSecondFactor({ passwordChangeRequired: outcome.passwordChangeRequired });
    return { session_token: moved.token, session_state: "checkotp", user_phone: moved.userPhone };
  }
  return continueToAuthorization(context, outcome.user, outcome.passwordChangeRequired, outcome.move);
}

/** spec section 3 after the last factor: setpassword when a new password must be set, else authorized. */
export async function continueToAuthorization(
  context: FlowContext,
  user: User,
  passwordChangeRequired: boolean,
  move: FirstFactorOutcome["move"],
): Promise<AnswerLeadingTo<"setpassword" | "authorized">> {
  if (passwordChangeRequired) {
    const moved = await move("setpassword", { passwordChangeRequired: true });
    return { session_token: moved.token, session_state: "setpassword", ...passwordFields(context, user) };
  }
  const moved = await move("authorized", { profileMnemocode: user.profileMnemocode });
  return {
    session_token: moved.token,
    session_state: "authorized",
    profile_mnemocode: user.profileMnemocode,
  };
}
