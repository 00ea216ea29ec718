import type { User } from "@auth/proto/identity";
import { CheckResult } from "@auth/proto/session";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { assertTransition } from "../../endpoint/transitions.js";
import { movedBefore, revokedBefore } from "../../steps/ended-by-itself.js";
import { assertMayChangeFactors } from "../../steps/factor-change.js";
import { changePassword, resumesChange, weakPassword } from "../../steps/password-change.js";
import { checkSessionPassword } from "../../steps/password-check.js";
import { moveSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";

const body = z.object({
  current_password: fields
    .secret()
    .optional()
    .describe(
      "The user's password now; without it the session's login must be fresh, as for changing a factor",
    ),
  new_password: fields.secret(4_096),
  end_this_session: z
    .boolean()
    .optional()
    .describe("End this session too (then the answer carries no token); false when absent"),
  captcha_response: fields.captchaResponse,
});

const responses = success({
  sessions_ended: z
    .number()
    .int()
    .describe("How many of the user's sessions ended: the others, and this one when it ended"),
  session_token: z
    .string()
    .optional()
    .describe("This session's new token, when it stays: the token presented no longer works"),
});

type Body = z.infer<typeof body>;

/**
 * Beyond the spec (docs/api-contract.md, "Changing the password"; ASVS 5.0 6.2.2): the signed-in
 * user sets a new password, proving the current one (checked by identity under the user's password
 * budget, spent before the compare) or a fresh login as for changing a factor. The new password
 * meets setpassword's rules; then nothing of the old access is left (docs/security.md, "A password
 * change"): a new credential generation ends every other session of the user, in any state, and any
 * that started on the old password meanwhile, and the user's recovery links; this session goes on
 * under a new token, or ends too, as the user chooses. Identity writes the password, sends the
 * "password changed" notice and records the event, for this session claimed for the change only:
 * of parallel requests with one token one changes the password, and a retry with the request's
 * Idempotency-Key resumes the change, written once (docs/decisions.md, "Idempotency-Key").
 */
export const passwordChange = defineEndpoint({
  operation: "password/change",
  summary: "Change the password while signed in",
  body,
  responses,
  examples: {
    request: { current_password: "correct horse battery staple", new_password: "a new and long passphrase" },
    answers: [{ sessions_ended: 2, session_token: "<session token>" }, { sessions_ended: 3 }],
  },
  steps: [currentUser, assertMayChangeFactors, checkSessionPassword],
  errors: [weakPassword],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  idempotent: true,
  // The last step made before the answer was lost: the move to a new token, answered again, or the
  // end of this session with the user's others. The sessions were ended by that try, not this one.
  endedByItself: async (ended) => {
    const moved = await movedBefore(ended, "authorized", "authorized");
    if (moved) return { sessions_ended: 0, session_token: moved.token };
    return (await revokedBefore(ended)) ? { sessions_ended: 0 } : undefined;
  },
  handle,
});

async function handle(context: SessionFlowContext<Body>): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  if (context.body.end_this_session) assertTransition(context.operation, context.state, null);
  // A retry of a change this request claimed the session for passed its checks before, with this body.
  if (resumesChange(context)) return change(context, user);
  const currentPassword = context.body.current_password;
  if (currentPassword === undefined) {
    assertMayChangeFactors(context, user);
    return change(context, user);
  }
  return checkSessionPassword(
    context,
    { userId: user.id, password: currentPassword, captchaResponse: context.body.captcha_response },
    (_right, rightCheckId) => change(context, user, rightCheckId),
  );
}

/**
 * Writes the new password (the session claimed first), ends the user's recovery links, and
 * finishes: this session moves on under a new generation, or ends with the user's sessions. A right
 * current password (`rightCheckId`) is reported right as it finishes: it forgets the password's
 * failures only, never another factor's (docs/security.md, "Guesses per hour at one user").
 */
async function change(
  context: SessionFlowContext<Body>,
  user: User,
  rightCheckId?: string,
): Promise<SuccessFields<typeof responses>> {
  const { ended } = await changePassword(context, user);
  const companyId = context.company.id;
  await context.backends.recovery.revokeRecoveryLinks({ companyId, userId: user.id });
  if (!context.body.end_this_session) {
    // The generation after the write ends any session that logged in with the old password meanwhile.
    const moved = await moveSession(context, "authorized", { renewCredentialGeneration: true, rightCheckId });
    return { sessions_ended: ended, session_token: moved.token };
  }
  if (rightCheckId !== undefined)
    await context.backends.session.reportSecretCheck({
      companyId,
      checkId: rightCheckId,
      result: CheckResult.RIGHT,
    });
  // This session ends with the user's others, and so does any that started on the old password
  // while the change was under way (a new generation).
  const { revoked } = await context.backends.session.revokeUserSessions({
    companyId,
    userId: user.id,
    retryKey: context.retryKey,
  });
  return { sessions_ended: ended + revoked };
}
