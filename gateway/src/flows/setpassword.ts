import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { answerExamples, type SuccessFields, success, toAuthorized } from "../endpoint/responses.js";
import { assertTransition } from "../endpoint/transitions.js";
import { authorizedAgain, movedBefore, revokedBefore } from "../steps/ended-by-itself.js";
import { changePassword, weakPassword } from "../steps/password-change.js";
import { forgetFailedChecks } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { currentUser } from "../steps/user-status.js";

const body = z.object({ new_password: fields.secret(4_096) });

// In state recovery-setpassword no token: the client logs in again.
const responses = z.union([toAuthorized(), success({})]);

/**
 * spec 4.5: a new password, in state setpassword (then authorized, with a new token) or
 * recovery-setpassword (then no token: every session of the user ends, the recovery one included).
 * Either way nothing of the old access is left (docs/security.md, "A password change"): every other
 * session of the user ends, in any state, and so does any that started on the old password while
 * the change was under way; the user's recovery links end too. A weak password is refused before
 * anything ends, so that the user may try another.
 *
 * The session is claimed for the request before the password is written (ClaimCredentialChange):
 * of parallel requests with one token exactly one changes the password, the others answer
 * auth.token.invalid. A retry with the request's Idempotency-Key (and body) resumes the change
 * where it stopped, and does not write the password again (docs/decisions.md, "Idempotency-Key").
 */
export const setpassword = defineEndpoint({
  operation: "setpassword",
  summary: "Set a new password",
  body,
  responses,
  examples: {
    request: { new_password: "a new and long passphrase" },
    answers: [answerExamples.authorized, {}],
  },
  steps: [currentUser],
  errors: [weakPassword],
  whileSuspended: "auth.user.restricted",
  idempotent: true,
  // The last step made before the answer was lost: the move to authorized, answered again, or the
  // end of the recovery session with the user's others.
  endedByItself: async (ended) => {
    const moved = await movedBefore(ended, "setpassword", "authorized");
    if (moved) return authorizedAgain(moved);
    return (await revokedBefore(ended)) ? {} : undefined;
  },
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  const companyId = context.company.id;
  // recovery-setpassword ends without a session: the table must allow that (other states may not).
  if (context.state !== "setpassword") assertTransition(context.operation, context.state, null);
  await changePassword(context, user);
  await context.backends.recovery.revokeRecoveryLinks({ companyId, userId: user.id });
  if (context.state === "setpassword") {
    // The generation after the write ends any session that logged in with the old password meanwhile.
    const moved = await moveSession(context, "authorized", {
      profileMnemocode: user.profileMnemocode,
      passwordChangeRequired: false,
      renewCredentialGeneration: true,
    });
    return {
      session_token: moved.token,
      session_state: "authorized",
      profile_mnemocode: user.profileMnemocode,
    };
  }
  // The recovery session ends with the others, and so does any session that started on the old
  // password while the change was under way (a new generation).
  await context.backends.session.revokeUserSessions({
    companyId,
    userId: user.id,
    retryKey: context.retryKey,
  });
  // Whoever recovered access may log in at once, whatever failures the user had. The recovery is
  // done by now: should this fail, the answer is still success, and the failures expire with their window.
  await forgetFailedChecks(context, { userId: user.id }).catch((error: unknown) =>
    context.log.warn({ err: error }, "recovery finished, but the user's failures were not forgotten"),
  );
  return {};
}
