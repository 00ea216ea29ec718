import { AuthError } from "@auth/errors";
import { checkSubjectOf } from "@auth/login-ids/check-subject";
import { type User, UserStatus } from "@auth/proto/identity";
import { SecretKind } from "@auth/proto/session";
import { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { passkeyExamples, passkeyRequestOptions } from "../endpoint/passkeys.js";
import {
  answerExamples,
  disclaimersRequired,
  exampleDisclaimer,
  exampleToken,
  inState,
  type SuccessFields,
  secondFactorChallenge,
} from "../endpoint/responses.js";
import { firstSecondFactor } from "../factors/second-factors.js";
import { requiredDisclaimers } from "../steps/disclaimers.js";
import { lookUpAndCountLoginId } from "../steps/login-lookup.js";
import { startAtSecondFactor, toldOf } from "../steps/next-step.js";
import { passkeyLoginOptions, passkeyReplacesPassword } from "../steps/passkeys.js";
import { guardLockout } from "../steps/secret-checks.js";
import { startSessionThen } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";

const body = z.object({ login_id: fields.loginId });

const responses = z.discriminatedUnion("session_state", [
  inState("checkpassword", {
    disclaimers_required: disclaimersRequired,
    captcha_required: z.boolean().describe("true: checkpassword must carry captcha_response"),
    passkey_options: passkeyRequestOptions
      .optional()
      .describe(
        "The user's passkey may replace the password (and the second factor): the options of its assertion, for auth/checkpasskey (docs/decisions.md, Passkeys)",
      ),
  }),
  inState("checkotp", { disclaimers_required: disclaimersRequired, ...secondFactorChallenge() }),
]);

/**
 * spec 4.1: identify the user by login ID and start a session. The lock-out comes before
 * auth.loginid.notfound and the user's status; for a user who may log in, the session service
 * checks it while it creates the session. A user's passkey is offered where it may stand in for
 * the step's factors (docs/decisions.md, "Passkeys").
 */
export const login = defineEndpoint({
  operation: "login",
  summary: "Check the login ID and start a session",
  body,
  responses,
  examples: {
    request: { login_id: "ann@acme.example" },
    answers: [
      {
        session_token: exampleToken,
        session_state: "checkpassword",
        disclaimers_required: [exampleDisclaimer],
        captcha_required: false,
        passkey_options: passkeyExamples.requestOptions,
      },
      {
        session_token: exampleToken,
        session_state: "checkotp",
        disclaimers_required: [],
        user_phone: answerExamples.checkotp.user_phone,
      },
    ],
  },
  steps: [lookUpAndCountLoginId, guardLockout, assertUserMayLogIn, startAtSecondFactor],
  // auth.restricted also from the session service, which checks the lock-out as it creates the session.
  errors: ["auth.loginid.notfound", "auth.restricted"],
  rateLimit: "address and login ID",
  countsLoginIdFirst: true,
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  const { normalizedLoginId, user } = await lookUpAndCountLoginId(context, context.body.login_id);
  if (user?.status !== UserStatus.ACTIVE) {
    await guardLockout(context, checkSubjectOf(user, normalizedLoginId), user && nextStepKind(user));
    if (!user) throw new AuthError("auth.loginid.notfound");
    assertUserMayLogIn(user);
  }
  const disclaimersRequired = await requiredDisclaimers(context, user.id);
  // The session carries the disclaimers to the next step, which need not read them again.
  const guard = { lockoutKind: nextStepKind(user), disclaimersRequired };

  if (user.hasPassword) {
    const started = await startSessionThen(
      context,
      user,
      "checkpassword",
      normalizedLoginId,
      guard,
      async ({ token }) => ({
        passkeyOptions: passkeyReplacesPassword(user) ? await passkeyLoginOptions(context, token) : undefined,
      }),
    );
    return {
      session_token: started.token,
      session_state: "checkpassword",
      disclaimers_required: disclaimersRequired,
      captcha_required: started.captchaRequired,
      passkey_options: started.passkeyOptions,
    };
  }
  const started = await startAtSecondFactor(context, user, normalizedLoginId, {
    passwordChangeRequired: user.passwordChangeRequired,
    ...guard,
  });
  return {
    session_token: started.token,
    session_state: "checkotp",
    disclaimers_required: disclaimersRequired,
    ...toldOf(started),
  };
}

/**
 * The budget whose lock-out refuses the login (docs/api-contract.md, "Captcha and lock-out"): of the
 * secret the next step takes, the password, or for a user without one the first second factor.
 */
function nextStepKind(user: User): SecretKind {
  return user.hasPassword
    ? SecretKind.PASSWORD
    : (firstSecondFactor(user)?.secretKind ?? SecretKind.PASSWORD);
}
