import { NotificationEvent } from "@auth/proto/identity";
import { type BackupCodeSet, newBackupCodeSet } from "../backup-codes.js";
import type { EventOrigin } from "../events.js";
import type { Notifier } from "../notifications/notifier.js";
import type { IdentityDependencies } from "../server.js";

/**
 * Issuing a user's backup codes (docs/decisions.md, "Backup codes"): a set made, stored, and the
 * user told (BACKUP_CODES_ISSUED); the codes are shown once, in the answer that issues them.
 */
export function backupCodeIssuing({ store, hasher }: IdentityDependencies, notifier: Notifier) {
  const issued = (companyId: string, userId: string, set: BackupCodeSet) => {
    notifier.notify(companyId, userId, NotificationEvent.BACKUP_CODES_ISSUED);
    return set.codes;
  };

  return {
    /**
     * A new set, generated and hashed: before what it comes with is committed, as hashing ten codes
     * takes a while that must not outlast the caller's deadline.
     */
    prepare: () => newBackupCodeSet(hasher),

    /** The set becomes the user's, and the set before ends (GenerateBackupCodes). */
    async replace(
      companyId: string,
      userId: string,
      set: BackupCodeSet,
      origin: EventOrigin,
    ): Promise<string[]> {
      await store.replaceBackupCodes(companyId, userId, set.hashes, origin);
      return issued(companyId, userId, set);
    },

    /**
     * The set becomes the user's first, with a first passkey or app (docs/decisions.md, "Passkeys"):
     * none when the user has codes by now.
     */
    async giveFirst(
      companyId: string,
      userId: string,
      set: BackupCodeSet,
      origin: EventOrigin,
    ): Promise<string[]> {
      if (!(await store.addFirstBackupCodes(companyId, userId, set.hashes, origin))) return [];
      return issued(companyId, userId, set);
    },
  };
}
