import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * What is kept for whoever presents a token, and only for them: a key derived from the token
 * (HKDF-SHA256, one per purpose) seals it with AES-256-GCM, so that a store that holds no token
 * cannot open it. The gateway seals the answers it replays to an Idempotency-Key, the session
 * service the token a move issued to the request that made it.
 */

/** The key of one purpose, derived from the token. */
export function keyFromToken(token: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", token, "", purpose, 32));
}

/** The text sealed: iv, tag and cipher text, base64. */
export function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(text), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
}

/** The text; throws when the key is not the one it was sealed with. */
export function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString();
}
