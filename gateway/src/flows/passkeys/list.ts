import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { passkeyExamples, passkeyObject, passkeyObjectOf } from "../../endpoint/passkeys.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { userChangingFactors } from "../../steps/factor-change.js";
import { assertPasskeysOn } from "../../steps/passkeys.js";

const body = z.object({});

const responses = success({
  passkeys: z.array(passkeyObject).describe("The user's passkeys, oldest first"),
});

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): the signed-in user's passkeys, from a session
 * whose authentication is fresh and complete (steps/factor-change.ts), so that the user can name
 * and remove them.
 */
export const passkeysList = defineEndpoint({
  operation: "passkeys/list",
  summary: "List the user's passkeys",
  body,
  responses,
  examples: { request: {}, answers: [{ passkeys: [passkeyExamples.passkey] }] },
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
  const user = await userChangingFactors(context);
  const { passkeys } = await context.backends.identity.listPasskeys({
    companyId: context.company.id,
    userId: user.id,
  });
  return { passkeys: passkeys.map(passkeyObjectOf) };
}
