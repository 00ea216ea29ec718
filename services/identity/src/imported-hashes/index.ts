import { parseArgon2 } from "./argon2.js";
import { parseBcrypt } from "./bcrypt.js";
import { parsePbkdf2Sha256 } from "./pbkdf2.js";
import type { ParsedHash } from "./scheme.js";
import { parseScrypt } from "./scrypt.js";

export type { ParsedHash } from "./scheme.js";

const schemes = [parseArgon2, parseBcrypt, parseScrypt, parsePbkdf2Sha256];

/**
 * Tells a password hash's scheme and checks its cost against the scheme's bounds, so that one
 * login cannot burn the CPU (docs/decisions.md, "Imported password hashes").
 */
export function parsePasswordHash(passwordHash: string): ParsedHash {
  for (const parse of schemes) {
    const parsed = parse(passwordHash);
    if (parsed) return parsed;
  }
  return { ok: false, reason: "unknown format" };
}
