import { AuthError } from "@auth/errors";
import { z } from "zod";
import { backupCodeExamples, firstBackupCodes, firstBackupCodesOf } from "../../endpoint/backup-codes.js";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import {
  passkeyExamples,
  passkeyName,
  passkeyObject,
  passkeyObjectOf,
  passkeyRegistration,
} from "../../endpoint/passkeys.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { userChangingFactors } from "../../steps/factor-change.js";
import { assertPasskeysOn } from "../../steps/passkeys.js";

const body = z.object({
  credential: passkeyRegistration,
  name: passkeyName.optional().describe('The user\'s name for the passkey; "Passkey" when absent'),
});

const responses = success({
  passkey: passkeyObject,
  sessions_ended: z.number().int().describe("How many of the user's other sessions ended"),
  backup_codes: firstBackupCodes(),
});

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): the authenticator's answer to
 * auth/passkeys/enrol's options, which identity verifies against the session's challenge (single
 * use) and stores, with the user's first backup codes when the user has none. The user's other
 * sessions end, as after any change of an authenticator (ASVS 5.0 7.4.3), and this one goes on.
 */
export const passkeysConfirm = defineEndpoint({
  operation: "passkeys/confirm",
  summary: "Add the passkey the authenticator created",
  body,
  responses,
  examples: {
    request: { credential: passkeyExamples.registration, name: "Laptop" },
    answers: [{ passkey: passkeyExamples.passkey, sessions_ended: 1, backup_codes: backupCodeExamples }],
  },
  steps: [assertPasskeysOn, userChangingFactors],
  errors: ["auth.passkey.invalid"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  assertPasskeysOn(context.company);
  await userChangingFactors(context);
  const finished = await context.backends.identity.finishPasskeyRegistration({
    companyId: context.company.id,
    sessionToken: context.token,
    responseJson: JSON.stringify(context.body.credential),
    name: context.body.name,
  });
  if (!finished.passkey) {
    throw new AuthError("auth.passkey.invalid", {
      detail: "not an answer to this session's options, or a passkey already added",
    });
  }
  const { ended } = await context.backends.session.endOwnSessions({
    sessionToken: context.token,
    others: true,
  });
  return {
    passkey: passkeyObjectOf(finished.passkey),
    sessions_ended: ended,
    backup_codes: firstBackupCodesOf(finished.backupCodes),
  };
}
