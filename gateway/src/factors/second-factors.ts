import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import type { FlowContext } from "../endpoint/context.js";
import { codesOf, step } from "../endpoint/step.js";
import { authenticatorApp } from "./authenticator-app.js";
import { backupCodes } from "./backup-codes.js";
import type { AnswerField, Challenge, SecondFactor } from "./second-factor.js";
import { smsCode } from "./sms-code.js";

/**
 * The login's second factors (docs/decisions.md, "Second factors"), in the order identity lists a
 * user's (User.authenticators.second_factors): a new kind of factor is one unit and one line here.
 */
export const secondFactors: readonly SecondFactor[] = [authenticatorApp, smsCode, backupCodes];

/** Whether the user has this second factor (identity's answer). */
export const owns = (user: User, factor: SecondFactor): boolean =>
  user.authenticators?.secondFactors.includes(factor.kind) ?? false;

/** The units of the second factors the user has, in the list's order. */
export function factorsOf(user: User, factors: readonly SecondFactor[] = secondFactors): SecondFactor[] {
  return factors.filter((factor) => owns(user, factor));
}

/** Whether a login of the user must pass a second factor (identity's answer). */
export const secondFactorRequired = (user: User): boolean =>
  user.authenticators?.secondFactorRequired ?? false;

/**
 * Challenges each of the user's second factors as the login reaches checkotp, or on renewotp (an
 * SMS is sent; an app or backup codes send nothing); what the client is told. A user who has none
 * cannot pass the step: auth.user.restricted.
 */
export const challengeSecondFactors = step(
  codesOf(["auth.user.restricted"], ...secondFactors.map((factor) => factor.challengeErrors)),
  async (
    context: FlowContext,
    user: User,
    sessionId: string,
    factors: readonly SecondFactor[] = secondFactors,
  ): Promise<Challenge> => {
    const own = factorsOf(user, factors);
    if (own.length === 0) {
      throw new AuthError("auth.user.restricted", {
        detail: "a second factor is needed, and the user has none",
      });
    }
    let told: Challenge = {};
    for (const factor of own) told = { ...told, ...(await factor.challenge(context, user, sessionId)) };
    return told;
  },
);

/**
 * The unit that takes an answer in checkotp's `field`: the user's own, or, when the user has none
 * that answers there, the list's first, whose check then finds nothing (`owned` false).
 */
export function factorAnswering(
  user: User,
  field: AnswerField,
  factors: readonly SecondFactor[] = secondFactors,
): { factor: SecondFactor; owned: boolean } {
  const candidates = factors.filter((factor) => factor.field === field);
  const own = factorsOf(user, candidates)[0];
  const factor = own ?? candidates[0];
  if (!factor) throw new Error(`no second factor answers in ${field}`);
  return { factor, owned: own !== undefined };
}

/** The budget the user's first check at checkotp spends: login's lock-out for a user without a password. */
export function firstSecondFactor(user: User, factors: readonly SecondFactor[] = secondFactors) {
  return factorsOf(user, factors)[0];
}
