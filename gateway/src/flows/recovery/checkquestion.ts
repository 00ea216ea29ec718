import { AuthError } from "@auth/errors";
import { z } from "zod";
import { securityEvent } from "../../security-events.js";
import { recoverySecretValid } from "../../steps/login-guard.js";
import { passwordFields } from "../../steps/next-step.js";
import { moveSession } from "../../steps/session-moves.js";
import { currentUser } from "../../steps/user-status.js";
import { sessionEndpoint } from "../endpoint.js";
import { fields } from "../fields.js";

/** DESIGN.md: a recovery session ends after this many wrong answers. */
export const wrongAnswersAllowed = 3;

/** spec 4.13 with DESIGN.md: the answer to the control question, in state recovery-checkquestion. */
export const checkquestion = sessionEndpoint(
  "recovery/checkquestion",
  z.object({ control_answer: fields.secret }),
  async (context) => {
    const user = await currentUser(context, context.session.userId);
    const valid = await recoverySecretValid(context, context.session.loginId, async () => {
      const verdict = await context.backends.identity.verifyControlAnswer({
        companyId: context.company.id,
        userId: user.id,
        answer: context.body.control_answer,
      });
      return verdict.valid;
    });
    if (!valid) {
      const { wrongAnswers } = await context.backends.recovery.recordWrongAnswer({
        companyId: context.company.id,
        sessionId: context.session.sessionId,
      });
      if (wrongAnswers >= wrongAnswersAllowed) {
        await context.backends.session.revokeSession({ sessionToken: context.token });
        securityEvent(context, "session.revoked", {
          userId: user.id,
          sessionId: context.session.sessionId,
          wrongAnswers,
        });
      }
      throw new AuthError("auth.controlanswer.invalid");
    }
    const moved = await moveSession(context, "recovery-setpassword");
    return { session_token: moved.token, session_state: "recovery-setpassword", ...passwordFields(context) };
  },
);
