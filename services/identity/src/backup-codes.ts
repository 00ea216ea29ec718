import { createHash, randomBytes, randomInt } from "node:crypto";
import type { PasswordHasher } from "./passwords.js";

// Crockford's base32: no I, L, O or U to misread.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const codeLength = 12;
const backupCodesPerUser = 10;

/** A new backup code: 60 random bits, written XXXX-XXXX-XXXX. */
function generateBackupCode(): string {
  const characters = Array.from({ length: codeLength }, () => alphabet[randomInt(alphabet.length)]).join("");
  return characters.match(/.{4}/g)?.join("-") ?? characters;
}

/** What a user typed, read the way Crockford's base32 is meant to be read. */
export function normalizeBackupCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/**
 * A new set of codes as stored: argon2id with one random salt of 128 bits for the set, as NIST SP
 * 800-63B-4 3.1.2.2 asks of look-up secrets under 112 bits (docs/decisions.md, "Backup codes").
 */
function hashBackupCodes(hasher: PasswordHasher, codes: string[]): Promise<string[]> {
  const salt = randomBytes(16);
  return Promise.all(codes.map((code) => hasher.hashWithSalt(normalizeBackupCode(code), salt)));
}

/** A new set of backup codes: as the user is shown them, once, and as they are stored. */
export interface BackupCodeSet {
  codes: string[];
  hashes: string[];
}

export async function newBackupCodeSet(hasher: PasswordHasher): Promise<BackupCodeSet> {
  const codes = Array.from({ length: backupCodesPerUser }, generateBackupCode);
  return { codes, hashes: await hashBackupCodes(hasher, codes) };
}

/**
 * What a code presented is stored as, if the user has it: hashed like one of the user's stored
 * codes (`stored`). A set issued before argon2id is SHA-256 salted with the user's id, until the
 * user's codes are next issued.
 */
export function storedFormOf(
  hasher: PasswordHasher,
  stored: string,
  userId: string,
  code: string,
): Promise<string> {
  const normalized = normalizeBackupCode(code);
  if (stored.startsWith("$argon2")) return hasher.hashLike(stored, normalized);
  return Promise.resolve(createHash("sha256").update(`${userId}:${normalized}`).digest("base64url"));
}
