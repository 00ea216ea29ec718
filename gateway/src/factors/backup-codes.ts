import { SecondFactorKind } from "@auth/proto/identity";
import { SecretKind } from "@auth/proto/session";
import { compareInSession } from "../steps/secret-checks.js";
import type { SecondFactor } from "./second-factor.js";

/** One of the user's backup codes, in checkotp's `backup_code` (spec 4.3 rule 2): each good once. */
export const backupCodes = {
  kind: SecondFactorKind.BACKUP_CODES,
  field: "backup_code",
  secretKind: SecretKind.BACKUP_CODE,
  wrongAnswer: "auth.backupcode.invalid",
  challengeErrors: [],
  // The user holds them.
  challenge: async () => ({}),
  verify: (context, user, answer) =>
    compareInSession(context, SecretKind.BACKUP_CODE, async () => {
      const { valid } = await context.backends.identity.useBackupCode({
        companyId: context.company.id,
        userId: user.id,
        backupCode: answer,
      });
      return valid;
    }),
} satisfies SecondFactor;
