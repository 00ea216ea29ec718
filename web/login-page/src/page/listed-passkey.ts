import { text } from "./words.js";

/** One passkey as auth/passkeys/list lists it (docs/decisions.md, "Passkeys"). */
export interface ListedPasskey {
  id: string;
  name: string;
  /** Backed up and so on the user's other devices too ("synced"), or on one device or security key. */
  kind: "synced" | "device-bound";
  transports: string[];
  user_verified: boolean;
  created_at: string;
  last_used_at?: string;
  /** Its sign counter did not grow once: it may have been copied, and is refused from then on. */
  clone_suspected: boolean;
}

/** What the list tells of a passkey beside its name: its kind, when it was added and last used. */
export function passkeyDetails(passkey: ListedPasskey): string {
  const createdAt = new Date(passkey.created_at);
  return [
    text(passkey.kind === "synced" ? "passkeys.synced" : "passkeys.deviceBound"),
    passkey.last_used_at
      ? text("passkeys.used", { createdAt, lastUsedAt: new Date(passkey.last_used_at) })
      : text("passkeys.unused", { createdAt }),
    ...(passkey.clone_suspected ? [text("passkeys.cloneSuspected")] : []),
  ].join(" ");
}
