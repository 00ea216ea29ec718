import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { answerExamples, type SuccessFields, toAuthorized } from "../endpoint/responses.js";
import { assertAllAccepted, recordAcceptance, requiredDisclaimers } from "../steps/disclaimers.js";
import { authorizedAgain, movedBefore } from "../steps/ended-by-itself.js";
import { guardLockout } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { currentUser } from "../steps/user-status.js";

const body = z.object({ accept_disclaimers: fields.acceptDisclaimers });

const responses = toAuthorized();

/** spec 4.8: the disclaimers an OAuth login still owes, accepted all together. */
export const acceptdisclaimers = defineEndpoint({
  operation: "acceptdisclaimers",
  summary: "Accept the disclaimers an OAuth login still owes",
  body,
  responses,
  examples: { request: { accept_disclaimers: ["terms"] }, answers: [answerExamples.authorized] },
  steps: [guardLockout, currentUser, assertAllAccepted, recordAcceptance],
  errors: [],
  whileSuspended: "auth.restricted",
  // Accepting is recorded again harmlessly; the move is the session's compare-and-set, made once,
  // and answered again to the request that made it.
  idempotent: true,
  endedByItself: async (ended) => {
    const moved = await movedBefore(ended, "acceptdisclaimers", "authorized");
    return moved && authorizedAgain(moved);
  },
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  await guardLockout(context, { userId: context.session.userId });
  const user = await currentUser(context, context.session.userId);
  const disclaimersRequired = await requiredDisclaimers(context, user.id);
  assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
  await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
  const moved = await moveSession(context, "authorized", { profileMnemocode: user.profileMnemocode });
  return {
    session_token: moved.token,
    session_state: "authorized",
    profile_mnemocode: user.profileMnemocode,
  };
}
