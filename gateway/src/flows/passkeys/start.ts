import { AuthError } from "@auth/errors";
import { z } from "zod";
import type { FlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { passkeyExamples, passkeyRequestOptions } from "../../endpoint/passkeys.js";
import { exampleToken, inState, type SuccessFields } from "../../endpoint/responses.js";
import { assertPasswordlessOn, passkeyLoginOptions } from "../../steps/passkeys.js";
import { startPasskeyDiscovery } from "../../steps/session-moves.js";

const body = z.object({});

const responses = inState("checkpassword", {
  passkey_options: passkeyRequestOptions.describe(
    "The options of the assertion, without allowCredentials: the browser offers the passkeys it has for the company (conditional UI); answer at auth/checkpasskey",
  ),
});

const { allowCredentials: _, ...discoverable } = passkeyExamples.requestOptions;

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): a login without a login ID, by one of the
 * passkeys the browser has for the company (docs/decisions.md, "Passkeys"). The session starts in
 * checkpassword with no user; auth/checkpasskey gives it the user of a user-verified passkey.
 */
export const passkeysStart = defineEndpoint({
  operation: "passkeys/start",
  summary: "Start a login without a login ID, by a passkey",
  body,
  responses,
  examples: {
    request: {},
    answers: [{ session_token: exampleToken, session_state: "checkpassword", passkey_options: discoverable }],
  },
  steps: [assertPasswordlessOn],
  errors: ["auth.passkey.invalid"],
  rateLimit: "address",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  assertPasswordlessOn(context.company);
  const started = await startPasskeyDiscovery(context, async ({ token }) => {
    const options = await passkeyLoginOptions(context, token);
    if (!options) throw new AuthError("auth.passkey.invalid", { detail: "identity offered no passkey" });
    return { options };
  });
  return { session_token: started.token, session_state: "checkpassword", passkey_options: started.options };
}
