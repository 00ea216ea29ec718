import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { passkeyCreationOptions, passkeyExamples } from "../../endpoint/passkeys.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { userChangingFactors } from "../../steps/factor-change.js";
import { assertPasskeysOn } from "../../steps/passkeys.js";

const body = z.object({});

const responses = success({ options: passkeyCreationOptions });

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): the signed-in user starts adding a passkey,
 * from a session whose authentication is fresh and complete (steps/factor-change.ts): the options
 * of a discoverable credential, with a challenge bound to the session; the user's passkeys are
 * excluded. auth/passkeys/confirm takes the authenticator's answer.
 */
export const passkeysEnrol = defineEndpoint({
  operation: "passkeys/enrol",
  summary: "Start adding a passkey",
  body,
  responses,
  examples: { request: {}, answers: [{ options: passkeyExamples.creationOptions }] },
  steps: [assertPasskeysOn, userChangingFactors],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  assertPasskeysOn(context.company);
  await userChangingFactors(context);
  const { optionsJson } = await context.backends.identity.beginPasskeyRegistration({
    companyId: context.company.id,
    sessionToken: context.token,
  });
  return { options: passkeyCreationOptions.parse(JSON.parse(optionsJson)) };
}
