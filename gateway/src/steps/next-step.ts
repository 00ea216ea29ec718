import type { User } from "@auth/proto/identity";
import type { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import type { PasskeyRequestOptions } from "../endpoint/passkeys.js";
import type { AnswerLeadingTo, passwordRules } from "../endpoint/responses.js";
import type { StateName } from "../endpoint/states.js";
import { step } from "../endpoint/step.js";
import type { Challenge } from "../factors/second-factor.js";
import { challengeSecondFactors, secondFactorRequired } from "../factors/second-factors.js";
import { describePasswordRules } from "./password-rules.js";
import {
  type MovedSession,
  type SessionChanges,
  type SessionStart,
  type StartedSession,
  startSessionThen,
} from "./session-moves.js";

/**
 * The fields that come with state setpassword and recovery-setpassword (spec 2.4): the company's
 * regex, and the description of every rule this user's new password must meet (`currentRefused`
 * false in recovery-setpassword, which may set the current password again).
 */
export function passwordFields(
  context: FlowContext,
  user: User,
  currentRefused = true,
): z.output<typeof passwordRules> {
  return {
    password_regex: context.company.policy.passwordRegex ?? null,
    password_regex_description: describePasswordRules(context.company.policy, user, currentRefused),
  };
}

export interface FirstFactorOutcome {
  user: User;
  passwordChangeRequired: boolean;
  /** Moves (or starts) the session in the given state. */
  move(to: StateName, changes?: SessionChanges): Promise<MovedSession>;
  /** Moves (or starts) the session in checkotp with the user's second factors challenged. */
  toSecondFactor(changes: SessionChanges): Promise<MovedSession & Challenge>;
}

/**
 * spec section 3 after a first factor (a password, a provider's login): the second factor if the
 * user must pass one (identity's answer, docs/decisions.md, "Second factors"), else a new password
 * if one must be set, else authorized.
 */
export const continueAfterFirstFactor = step(
  challengeSecondFactors.errors,
  async (
    context: FlowContext,
    outcome: FirstFactorOutcome,
  ): Promise<AnswerLeadingTo<"checkotp" | "setpassword" | "authorized">> => {
    if (secondFactorRequired(outcome.user)) {
      const moved = await outcome.toSecondFactor({ passwordChangeRequired: outcome.passwordChangeRequired });
      return { session_token: moved.token, session_state: "checkotp", ...toldOf(moved) };
    }
    return continueToAuthorization(context, outcome.user, outcome.passwordChangeRequired, outcome.move);
  },
);

/** The answer's fields of what the user's second factors' challenges told (responses.ts, secondFactorChallenge). */
export function toldOf(challenge: Challenge): {
  user_phone?: string;
  passkey_options?: PasskeyRequestOptions;
} {
  return { user_phone: challenge.userPhone, passkey_options: challenge.passkeyOptions };
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

/**
 * Starts a login session in checkotp with the user's second factors challenged (an SMS sent). When
 * a challenge fails, the session is revoked again.
 */
export const startAtSecondFactor = step(
  challengeSecondFactors.errors,
  (
    context: FlowContext,
    user: User,
    loginId: string,
    start: SessionStart = {},
  ): Promise<StartedSession & Challenge> =>
    startSessionThen(context, user, "checkotp", loginId, start, ({ token, session }) =>
      challengeSecondFactors(context, user, { sessionId: session.sessionId, token }),
    ),
);
