import { createHash, randomInt } from "node:crypto";

// Crockford's base32: no I, L, O or U to misread.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const codeLength = 12;
export const backupCodesPerUser = 10;

/** A new backup code: 60 random bits, written XXXX-XXXX-XXXX. */
export function generateBackupCode(): string {
  const characters = Array.from({ length: codeLength }, () => alphabet[randomInt(alphabet.length)]).join("");
  return characters.match(/.{4}/g)?.join("-") ?? characters;
}

/** What a user typed, read the way Crockford's base32 is meant to be read. */
export function normalizeBackupCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/**
 * Codes are stored as SHA-256 salted with the user's id: at 60 random bits, a stolen table would
 * take years per code to reverse, and a lookup stays one indexed row.
 */
export function hashBackupCode(userId: string, code: string): string {
  return createHash("sha256")
    .update(`${userId}:${normalizeBackupCode(code)}`)
    .digest("base64url");
}
