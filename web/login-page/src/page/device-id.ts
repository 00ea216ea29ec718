/** Where the page keeps its device id, in the browser's storage of the page's origin. */
const storageKey = "auth.device-id";

/**
 * The browser's device id, sent as X-Device-Id (docs/api-contract.md, "Known devices"): 128 random
 * bits in base64url, made once and kept in localStorage, so that the service tells this browser's
 * sign-ins from another device's. Nothing about the person is in it. Without storage (a private
 * window that refuses it) a new one is made for each page load.
 */
export function deviceId(storage: Pick<Storage, "getItem" | "setItem"> | null = safeStorage()): string {
  const kept = storage?.getItem(storageKey);
  if (kept && /^[A-Za-z0-9_-]{22}$/.test(kept)) return kept;
  const made = base64url(crypto.getRandomValues(new Uint8Array(16)));
  try {
    storage?.setItem(storageKey, made);
  } catch {
    // Storage full or refused: the id lives as long as the page.
  }
  return made;
}

function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}
