import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import type { SessionFlowContext } from "../endpoint/context.js";
import type { AnswerLeadingTo } from "../endpoint/responses.js";
import { codesOf, step } from "../endpoint/step.js";
import type { SecondFactor } from "../factors/second-factor.js";
import { assertAllAccepted, recordAcceptance, sessionDisclaimers } from "./disclaimers.js";
import { continueToAuthorization } from "./next-step.js";
import { afterCheck, guardLockout } from "./secret-checks.js";
import { moveSession } from "./session-moves.js";
import { assertUserMayLogIn } from "./user-status.js";

/**
 * spec 4.3, an answer of one of the user's second factors in checkotp (checkotp's fields, or a
 * passkey's assertion at auth/checkpasskey), in the order of docs/decisions.md ("Login"):
 * suspension and the lock-out of the answer's kind, the user's status, the disclaimers (a missing
 * code never burns a code), then the answer, checked under the user's budget of its kind; a right
 * one, with the disclaimers accepted, leads to setpassword or authorized.
 */
export const passSecondFactor = step(
  codesOf(guardLockout, assertUserMayLogIn, assertAllAccepted, afterCheck, recordAcceptance),
  async (
    context: SessionFlowContext<{ accept_disclaimers?: string[] }>,
    user: User,
    { factor, owned }: { factor: SecondFactor; owned: boolean },
    answer: string,
  ): Promise<AnswerLeadingTo<"setpassword" | "authorized">> => {
    await guardLockout(context, { userId: user.id }, factor.secretKind);
    assertUserMayLogIn(user);
    const disclaimersRequired = sessionDisclaimers(context);
    const accepted = context.body.accept_disclaimers;
    assertAllAccepted(disclaimersRequired, accepted);
    // A factor the user does not have has nothing to compare.
    if (!owned) throw new AuthError(factor.wrongAnswer, { detail: "the user has no such second factor" });

    const verdict = await factor.verify(context, user, answer);
    const authorized = await afterCheck(
      context,
      verdict.check,
      verdict.valid ? user : undefined,
      async (_, rightCheckId) => {
        await recordAcceptance(context, user.id, disclaimersRequired, accepted);
        return continueToAuthorization(context, user, context.session.passwordChangeRequired, (to, changes) =>
          moveSession(context, to, { ...changes, rightCheckId }),
        );
      },
    );
    if (!authorized) throw new AuthError(factor.wrongAnswer);
    return authorized;
  },
);
