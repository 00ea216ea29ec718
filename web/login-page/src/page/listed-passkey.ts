import { texts } from "./texts.js";
import { shownTime } from "./time.js";

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

const words = texts.passkeys;

/** What the list tells of a passkey beside its name: its kind, when it was added and last used. */
export function passkeyDetails(passkey: ListedPasskey): string {
  const used = passkey.last_used_at ? words.lastUsed(shownTime(passkey.last_used_at)) : words.notUsed;
  const details = words.details(words.kinds[passkey.kind], shownTime(passkey.created_at), used);
  return passkey.clone_suspected ? words.copied(details) : details;
}
