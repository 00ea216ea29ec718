import { AuthError } from "@auth/errors";
import { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import { afterPassword, answerExamples, type SuccessFields } from "../endpoint/responses.js";
import { assertAllAccepted, recordAcceptance, requiredDisclaimers } from "../steps/disclaimers.js";
import { countLoginId } from "../steps/login-lookup.js";
import { continueAfterFirstFactor, startAtSecondFactor } from "../steps/next-step.js";
import { afterCheck } from "../steps/secret-checks.js";
import { startSession } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";

const body = z.object({
  login_id: fields.loginId,
  password: fields.secret(),
  captcha_response: fields.captchaResponse,
  accept_disclaimers: fields.acceptDisclaimers,
});

const responses = afterPassword();

/**
 * spec 4.6: login ID and password in one call. Whether the login ID exists is never told: an
 * unknown one costs the same hashing and gets the same answer, and the user's status and
 * disclaimers are looked at only once the credentials are right (docs/api-contract.md, "Login").
 */
export const checkcredentials = defineEndpoint({
  operation: "checkcredentials",
  summary: "Check login ID and password in one call",
  body,
  responses,
  examples: {
    request: {
      login_id: "ann@acme.example",
      password: "correct horse battery staple",
      captcha_response: "03AFcWeA5kTw-rY2Hq",
      accept_disclaimers: ["terms"],
    },
    answers: [answerExamples.checkotp, answerExamples.setpassword, answerExamples.authorized],
  },
  steps: [
    countLoginId,
    afterCheck,
    assertUserMayLogIn,
    assertAllAccepted,
    recordAcceptance,
    continueAfterFirstFactor,
    startAtSecondFactor,
  ],
  errors: ["auth.credentials.invalid"],
  rateLimit: "address and login ID",
  countsLoginIdFirst: true,
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  await countLoginId(context, context.body.login_id);
  const verdict = await context.backends.identity.verifyCredentials({
    companyId: context.company.id,
    loginId: context.body.login_id,
    password: context.body.password,
    captchaResponse: context.body.captcha_response,
    clientAddress: context.clientAddress,
  });
  const { user, passwordChangeRequired, normalizedLoginId, check } = verdict;
  const wrongCredentials = () =>
    new AuthError("auth.credentials.invalid", { fields: { captcha_required: check?.captchaRequired } });
  const answer = await afterCheck(context, check, user, async (user, rightCheckId) => {
    assertUserMayLogIn(user);
    const disclaimersRequired = await requiredDisclaimers(context, user.id);
    assertAllAccepted(disclaimersRequired, context.body.accept_disclaimers);
    await recordAcceptance(context, user.id, disclaimersRequired, context.body.accept_disclaimers);
    // A password changed since the check refuses the session: the password is no longer the user's.
    const start = { credentialGeneration: check?.credentialGeneration ?? "", rightCheckId };
    const outcome = continueAfterFirstFactor(context, {
      user,
      passwordChangeRequired,
      move: (to, changes) => startSession(context, user, to, normalizedLoginId, { ...changes, ...start }),
      toSecondFactor: (changes) =>
        startAtSecondFactor(context, user, normalizedLoginId, { ...changes, ...start }),
    });
    return outcome.catch((error: unknown) => {
      throw error instanceof AuthError && error.code === "auth.credentials.invalid"
        ? wrongCredentials()
        : error;
    });
  });
  if (!answer) throw wrongCredentials();
  return answer;
}
