import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";
import { codesOf, step } from "../endpoint/step.js";
import type { MovedSession } from "../steps/session-moves.js";
import { authenticatorApp } from "./authenticator-app.js";
import { backupCodes } from "./backup-codes.js";
import { passkey } from "./passkey.js";
import type { AnswerField, Challenge, ChallengedSession, SecondFactor } from "./second-factor.js";
import { smsCode } from "./sms-code.js";

/**
 * The login's second factors (docs/decisions.md, "Second factors"), in the order identity lists a
 * user's (User.authenticators.second_factors): a new kind of factor is one unit and one line here.
 */
export const secondFactors: readonly SecondFactor[] = [passkey, authenticatorApp, smsCode, backupCodes];

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

/** The user's second factors; a user who has none cannot pass the step: auth.user.restricted. */
function ownOrRefused(user: User, factors: readonly SecondFactor[]): SecondFactor[] {
  const own = factorsOf(user, factors);
  if (own.length === 0) {
    throw new AuthError("auth.user.restricted", {
      detail: "a second factor is needed, and the user has none",
    });
  }
  return own;
}

async function challengeEach(
  context: FlowContext,
  user: User,
  factors: readonly SecondFactor[],
  session: ChallengedSession,
): Promise<Challenge> {
  let told: Challenge = {};
  for (const factor of factors) told = { ...told, ...(await factor.challenge(context, user, session)) };
  return told;
}

const challengeErrors = codesOf(
  ["auth.user.restricted"],
  ...secondFactors.map((factor) => factor.challengeErrors),
);

/**
 * Challenges each of the user's second factors once the login's session is in checkotp, or on
 * renewotp (an SMS is sent, a passkey's challenge issued; an app or backup codes send nothing);
 * what the client is told.
 */
export const challengeSecondFactors = step(
  challengeErrors,
  async (
    context: FlowContext,
    user: User,
    session: ChallengedSession,
    factors: readonly SecondFactor[] = secondFactors,
  ): Promise<Challenge> => challengeEach(context, user, ownOrRefused(user, factors), session),
);

/**
 * Moves the request's session into checkotp with the user's second factors challenged: a message
 * goes out before the move, so that a failed send leaves the session as it was; a challenge bound
 * to the session in checkotp (a passkey's) is issued after it, with the new token (should identity
 * fail then, the session has moved on without its token reaching the client, who logs in again).
 */
export const moveToSecondFactors = step(
  challengeErrors,
  async (
    context: SessionFlowContext,
    user: User,
    move: () => Promise<MovedSession>,
    factors: readonly SecondFactor[] = secondFactors,
  ): Promise<MovedSession & Challenge> => {
    const own = ownOrRefused(user, factors);
    const sessionId = context.session.sessionId;
    const before = own.filter((factor) => !factor.challengedInCheckotp);
    const sent = await challengeEach(context, user, before, { sessionId, token: context.token });
    const moved = await move();
    const after = own.filter((factor) => factor.challengedInCheckotp);
    const bound = await challengeEach(context, user, after, { sessionId, token: moved.token });
    return { ...moved, ...sent, ...bound };
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
