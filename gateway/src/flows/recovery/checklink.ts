import { z } from "zod";
import type { FlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { answerExamples, type SuccessFields, toRecoverySetpassword } from "../../endpoint/responses.js";
import { passwordFields } from "../../steps/next-step.js";
import { startSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";

const body = z.object({ token: fields.secret(512) });

const responses = toRecoverySetpassword();

/**
 * auth/recovery/checklink (docs/api-contract.md, "Recovery"): the token of the e-mail link, used
 * once, becomes a session in recovery-setpassword. A used or unknown link is auth.token.invalid, an
 * old one auth.token.expired.
 */
export const checklink = defineEndpoint({
  operation: "recovery/checklink",
  summary: "Redeem the link of a recovery e-mail",
  body,
  responses,
  examples: {
    request: { token: "Zk3vQ9xL2bN7cR1tY8wE5aS0dF6gH4jK" },
    answers: [answerExamples.recoverySetpassword],
  },
  // The link's token is checked by the flow: the endpoint takes no Authorization header.
  steps: [currentUser],
  errors: ["auth.token.invalid", "auth.token.expired"],
  rateLimit: "address",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  const { userId, loginId } = await context.backends.recovery.redeemRecoveryLink({
    companyId: context.company.id,
    linkToken: context.body.token,
  });
  const user = await currentUser(context, userId);
  const started = await startSession(context, user, "recovery-setpassword", loginId);
  return {
    session_token: started.token,
    session_state: "recovery-setpassword",
    ...passwordFields(context, user, false),
  };
}
