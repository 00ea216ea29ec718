import { z } from "zod";
import { passwordFields } from "../../steps/next-step.js";
import { startSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";
import { openEndpoint } from "../endpoint.js";

/**
 * auth/recovery/checklink (docs/api-contract.md, "Recovery"): the token of the e-mail link, used
 * once, becomes a session in recovery-setpassword. A used or unknown link is auth.token.invalid, an
 * old one auth.token.expired.
 */
export const checklink = openEndpoint(
  "recovery/checklink",
  z.object({ token: z.string("must be a string").min(1, "must not be empty").max(512) }),
  async (context) => {
    const { userId, loginId } = await context.backends.recovery.redeemRecoveryLink({
      companyId: context.company.id,
      linkToken: context.body.token,
    });
    const user = await currentUser(context, userId);
    const started = await startSession(context, user, "recovery-setpassword", loginId);
    return {
      session_token: started.token,
      session_state: "recovery-setpassword",
      ...passwordFields(context),
    };
  },
);
