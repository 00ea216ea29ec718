import { Passkey } from "@auth/proto/identity";
import type { Records } from "../table.js";

const time = (at: Date | undefined) => at?.toISOString() ?? "";

/** What a passkey is beside its name: synced or device-bound, verified, clone-suspect. */
function traits(passkey: Passkey): string {
  return [
    passkey.backedUp ? "synced" : "device-bound",
    ...(passkey.userVerified ? ["user verified"] : []),
    ...(passkey.cloneSuspected ? ["CLONE SUSPECTED"] : []),
  ].join(", ");
}

/** A user's passkeys, never their keys. */
export const passkeyRecords: Records<Passkey> = {
  columns: [
    { header: "id", cell: (passkey) => passkey.id },
    { header: "name", cell: (passkey) => passkey.name },
    { header: "traits", cell: traits },
    { header: "transports", cell: (passkey) => passkey.transports.join(",") },
    { header: "created", cell: (passkey) => time(passkey.createdAt) },
    { header: "last used", cell: (passkey) => time(passkey.lastUsedAt) },
  ],
  none: "no passkeys",
  toJSON: (passkey) => Passkey.toJSON(passkey),
};
