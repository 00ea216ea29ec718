import { AuthError } from "@auth/errors";
import { SecretKind } from "@auth/proto/session";
import { z } from "zod";
import type { SessionFlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { passkeyAssertion, passkeyExamples } from "../endpoint/passkeys.js";
import {
  answerExamples,
  disclaimersRequired,
  exampleDisclaimer,
  exampleToken,
  inState,
  type SuccessFields,
  toAuthorized,
  toSetpassword,
} from "../endpoint/responses.js";
import type { StateName } from "../endpoint/states.js";
import { passkey } from "../factors/passkey.js";
import { owns } from "../factors/second-factors.js";
import {
  assertAllAccepted,
  recordAcceptance,
  requiredDisclaimers,
  sessionDisclaimers,
} from "../steps/disclaimers.js";
import { continueToAuthorization } from "../steps/next-step.js";
import { verifyAssertion } from "../steps/passkeys.js";
import { passSecondFactor } from "../steps/second-factor-check.js";
import { afterCheck, guardLockout } from "../steps/secret-checks.js";
import { moveSession, type SessionChanges } from "../steps/session-moves.js";
import { assertUserMayLogIn, sessionUser } from "../steps/user-status.js";

const body = z.object({
  credential: passkeyAssertion,
  accept_disclaimers: fields.acceptDisclaimers,
});

type Body = z.infer<typeof body>;

const responses = z.discriminatedUnion("session_state", [
  toSetpassword(),
  toAuthorized(),
  inState("acceptdisclaimers", { disclaimers_required: disclaimersRequired }),
]);

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): the browser's assertion of one of the user's
 * passkeys, to the options the login's last answer carried (`passkey_options`), in the login's two
 * states (docs/decisions.md, "Passkeys"). In checkotp it is the second factor, as checkotp's answers
 * are; in checkpassword a user-verified passkey counts for the password and the second factor.
 */
export const checkpasskey = defineEndpoint({
  operation: "checkpasskey",
  summary: "Check a passkey: in place of the password and the second factor, or as the second factor",
  body,
  responses,
  examples: {
    request: { credential: passkeyExamples.assertion, accept_disclaimers: ["terms"] },
    answers: [
      answerExamples.setpassword,
      answerExamples.authorized,
      {
        session_token: exampleToken,
        session_state: "acceptdisclaimers",
        disclaimers_required: [exampleDisclaimer],
      },
    ],
  },
  steps: [
    sessionUser,
    passSecondFactor,
    guardLockout,
    assertAllAccepted,
    verifyAssertion,
    afterCheck,
    assertUserMayLogIn,
    recordAcceptance,
  ],
  errors: ["auth.passkey.invalid"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(context: SessionFlowContext<Body>): Promise<SuccessFields<typeof responses>> {
  const assertion = JSON.stringify(context.body.credential);
  if (context.state === "checkotp") {
    const user = await sessionUser(context, context.session.userId);
    return passSecondFactor(context, user, { factor: passkey, owned: owns(user, passkey) }, assertion);
  }
  return inPlaceOfPassword(context, assertion);
}

/**
 * checkpassword's order of checks (docs/decisions.md, "Login"): the lock-out (of the user's
 * passkeys), the disclaimers, then the assertion, which identity verifies only with the user
 * verified. A login without a login ID has no user before: identity finds the user from the
 * credential, the move gives the session that user, and the user's disclaimers, not known before,
 * lead to acceptdisclaimers, as an OAuth login's do (spec 4.7, 4.8).
 */
async function inPlaceOfPassword(
  context: SessionFlowContext<Body>,
  assertion: string,
): Promise<SuccessFields<typeof responses>> {
  const { userId } = context.session;
  const accepted = context.body.accept_disclaimers;
  const owedAtLogin = sessionDisclaimers(context);
  if (userId) await guardLockout(context, { userId }, SecretKind.PASSKEY);
  assertAllAccepted(owedAtLogin, accepted);

  const verdict = await verifyAssertion(context, assertion);
  const answer = await afterCheck(
    context,
    verdict.check,
    verdict.valid ? verdict.user : undefined,
    async (user, rightCheckId): Promise<SuccessFields<typeof responses>> => {
      // The user as it is now (an administrator may have closed the account since the login).
      assertUserMayLogIn(user);
      const move = (to: StateName, changes: SessionChanges = {}) =>
        moveSession(context, to, { ...changes, rightCheckId }).catch((error: unknown) => {
          // A login without a login ID takes the user's credentials as they were when the check
          // was reserved: changed since (a new password), the passkey's check no longer stands.
          throw error instanceof AuthError && error.code === "auth.credentials.invalid"
            ? new AuthError("auth.passkey.invalid", { detail: "the user's credentials changed meanwhile" })
            : error;
        });
      if (!userId) {
        const owed = await requiredDisclaimers(context, user.id);
        if (owed.length > 0) {
          const moved = await move("acceptdisclaimers");
          return {
            session_token: moved.token,
            session_state: "acceptdisclaimers",
            disclaimers_required: owed,
          };
        }
      }
      await recordAcceptance(context, user.id, owedAtLogin, accepted);
      return continueToAuthorization(context, user, user.passwordChangeRequired, move);
    },
  );
  if (!answer) throw new AuthError("auth.passkey.invalid");
  return answer;
}
