import { z } from "zod";
import { backupCodeExamples } from "../../endpoint/backup-codes.js";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { userChangingFactors } from "../../steps/factor-change.js";

const body = z.object({});

const responses = success({
  backup_codes: z
    .array(z.string())
    .describe(
      "The user's new backup codes, each good once; shown this once. The codes before no longer work",
    ),
});

/**
 * Beyond the spec (docs/api-contract.md, "Passkeys"): the signed-in user gets a new set of backup
 * codes (docs/decisions.md, "Backup codes"), from a session whose authentication is fresh and
 * complete (steps/factor-change.ts); the set before ends, and identity tells the user.
 */
export const backupcodesGenerate = defineEndpoint({
  operation: "backupcodes/generate",
  summary: "Generate a new set of backup codes",
  body,
  responses,
  examples: {
    request: {},
    answers: [{ backup_codes: backupCodeExamples }],
  },
  steps: [userChangingFactors],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await userChangingFactors(context);
  const { backupCodes } = await context.backends.identity.generateBackupCodes({
    companyId: context.company.id,
    userId: user.id,
  });
  return { backup_codes: backupCodes };
}
