import { AuthError } from "@auth/errors";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { passkeyId } from "../../endpoint/passkeys.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { userChangingFactors } from "../../steps/factor-change.js";
import { assertPasskeysOn } from "../../steps/passkeys.js";

const body = z.object({ passkey_id: passkeyId });

const responses = success({});

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): the signed-in user removes one of the user's
 * passkeys, from a session whose authentication is fresh and complete (steps/factor-change.ts);
 * identity tells the user. A passkey that is not the user's is as unknown as one that never was.
 */
export const passkeysRemove = defineEndpoint({
  operation: "passkeys/remove",
  summary: "Remove one of the user's passkeys",
  body,
  responses,
  examples: { request: { passkey_id: "3f0c2a8e-5b7d-4e19-9a64-1d2c7b8e9f30" }, answers: [{}] },
  steps: [assertPasskeysOn, userChangingFactors],
  errors: ["auth.passkey.notfound"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  assertPasskeysOn(context.company);
  const user = await userChangingFactors(context);
  const { removed } = await context.backends.identity.removePasskey({
    companyId: context.company.id,
    userId: user.id,
    passkeyId: context.body.passkey_id,
  });
  if (!removed) throw new AuthError("auth.passkey.notfound");
  return {};
}
