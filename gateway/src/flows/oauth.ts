import { AuthError } from "@auth/errors";
import { z } from "zod";
import type { FlowContext } from "../endpoint/context.js";
import { defineEndpoint } from "../endpoint/define.js";
import { fields } from "../endpoint/fields.js";
import {
  answerExamples,
  disclaimersRequired,
  exampleDisclaimer,
  exampleToken,
  inState,
  type SuccessFields,
  secondFactorChallenge,
  toAuthorized,
} from "../endpoint/responses.js";
import { secondFactorRequired } from "../factors/second-factors.js";
import { requiredDisclaimers } from "../steps/disclaimers.js";
import { startAtSecondFactor, toldOf } from "../steps/next-step.js";
import { startSession } from "../steps/session-moves.js";
import { assertUserMayLogIn } from "../steps/user-status.js";

const body = z.object({
  provider_id: z
    .number("must be a number")
    .int("must be a whole number")
    .min(1, "must be 1 to 5")
    .max(5, "must be 1 to 5"),
  code: fields.secret(4_096),
  redirect_uri: z.string("must be a string").min(1, "must not be empty").max(2_000),
  // Beyond the spec (docs/api-contract.md, "OAuth"): PKCE's verifier (required for a public client)
  // and the nonce the client sent to the provider (required for an OpenID Connect provider).
  code_verifier: fields.secret(200).optional(),
  nonce: z.string("must be a string").max(500).optional(),
});

const responses = z.discriminatedUnion("session_state", [
  inState("checkotp", { disclaimers_required: disclaimersRequired, ...secondFactorChallenge() }),
  inState("acceptdisclaimers", { disclaimers_required: disclaimersRequired }),
  toAuthorized(),
]);

/**
 * spec 4.7: a user verified by one of the company's OAuth providers. A user who must pass a second
 * factor passes it next, in checkotp (its disclaimers with it), unless the provider proved a
 * multi-factor login the company's slot trusts (docs/decisions.md, "OAuth").
 */
export const oauth = defineEndpoint({
  operation: "oauth",
  summary: "Log in through one of the company's OAuth providers",
  body,
  responses,
  examples: {
    request: {
      provider_id: 1,
      code: "4/0AeanS0b8cX9",
      redirect_uri: "https://app.acme.example/oauth/callback",
      code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
      nonce: "n-0S6_WzA2Mj",
    },
    answers: [
      {
        session_token: exampleToken,
        session_state: "checkotp",
        disclaimers_required: [],
        user_phone: answerExamples.checkotp.user_phone,
      },
      {
        session_token: exampleToken,
        session_state: "acceptdisclaimers",
        disclaimers_required: [exampleDisclaimer],
      },
      answerExamples.authorized,
    ],
  },
  steps: [assertUserMayLogIn, startAtSecondFactor],
  errors: ["auth.oauth.failed", "auth.oauth.notfound"],
  rateLimit: "address",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  const exchanged = await context.backends.identity.exchangeOAuthCode({
    companyId: context.company.id,
    slot: context.body.provider_id,
    code: context.body.code,
    redirectUri: context.body.redirect_uri,
    codeVerifier: context.body.code_verifier,
    nonce: context.body.nonce,
  });
  const { user } = exchanged;
  if (!user) throw new AuthError("auth.oauth.notfound");
  assertUserMayLogIn(user);
  const loginId = `oauth:${context.body.provider_id}:${exchanged.subject}`;
  const disclaimers = await requiredDisclaimers(context, user.id);
  // The provider's login is the session's first factor, as identity recorded it.
  const start = { rightCheckId: exchanged.checkId };
  if (secondFactorRequired(user) && !exchanged.multiFactor) {
    const started = await startAtSecondFactor(context, user, loginId, {
      ...start,
      disclaimersRequired: disclaimers,
    });
    return {
      session_token: started.token,
      session_state: "checkotp",
      disclaimers_required: disclaimers,
      ...toldOf(started),
    };
  }
  if (disclaimers.length > 0) {
    const started = await startSession(context, user, "acceptdisclaimers", loginId, start);
    return {
      session_token: started.token,
      session_state: "acceptdisclaimers",
      disclaimers_required: disclaimers,
    };
  }
  const started = await startSession(context, user, "authorized", loginId, {
    ...start,
    profileMnemocode: user.profileMnemocode,
  });
  return {
    session_token: started.token,
    session_state: "authorized",
    profile_mnemocode: user.profileMnemocode,
  };
}
