import { z } from "zod";
import { assertAllAccepted, recordAcceptance, requiredDisclaimers } from "../steps/disclaimers.js";
import { guardSubject } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { currentUser } from "../steps/user-status.js";
import { sessionEndpoint } from "./endpoint.js";
import { fields } from "./fields.js";

/** spec 4.8: the disclaimers an OAuth login still owes, accepted all together. */
export const acceptdisclaimers = sessionEndpoint(
  "acceptdisclaimers",
  z.object({ accept_disclaimers: fields.acceptDisclaimers }),
  async (context) => {
    await guardSubject(context, { userId: context.session.userId });
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
  },
  // Accepting is recorded again harmlessly; the move is the session's compare-and-set, made once.
  { idempotent: true },
);
