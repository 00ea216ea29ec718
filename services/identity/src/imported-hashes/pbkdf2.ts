import { pbkdf2 } from "node:crypto";
import { decimal, decodeBase64, type ParsedHash, refused, type SchemeParser, sameKey } from "./scheme.js";

/** Iterations of HMAC-SHA256: 2,000,000 take about a second of one core. */
export const pbkdf2IterationBound = 2_000_000;

interface Pbkdf2Hash {
  iterations: number;
  salt: Buffer;
  key: Buffer;
}

/**
 * The PHC form `$pbkdf2-sha256$i=<iterations>[,l=<length>]$<salt>$<key>` (base64) and passlib's
 * `$pbkdf2-sha256$<iterations>$<salt>$<key>` (adapted base64).
 */
function modular(passwordHash: string): Pbkdf2Hash | undefined {
  const match = /^\$pbkdf2-sha256\$(?:i=(\d+)(?:,l=\d+)?|(\d+))\$([^$]+)\$([^$]+)$/.exec(passwordHash);
  const iterations = decimal(match?.[1] ?? match?.[2]);
  const [salt, key] = [match?.[3], match?.[4]].map((text) => text && decodeBase64(text));
  return iterations && salt && key ? { iterations, salt, key } : undefined;
}

/** Django's `pbkdf2_sha256$<iterations>$<salt>$<key>`: the salt's text is the salt, the key in base64. */
function django(passwordHash: string): Pbkdf2Hash | undefined {
  const match = /^pbkdf2_sha256\$(\d+)\$([^$]+)\$([A-Za-z0-9+/]+={0,2})$/.exec(passwordHash);
  const iterations = decimal(match?.[1]);
  if (!match?.[2] || !match[3] || !iterations) return undefined;
  return { iterations, salt: Buffer.from(match[2], "utf8"), key: Buffer.from(match[3], "base64") };
}

export const parsePbkdf2Sha256: SchemeParser = (passwordHash): ParsedHash | undefined => {
  const isPbkdf2 = passwordHash.startsWith("$pbkdf2-sha256$") || passwordHash.startsWith("pbkdf2_sha256$");
  if (!isPbkdf2) return undefined;
  const stored = modular(passwordHash) ?? django(passwordHash);
  if (!stored || stored.key.length < 16) return refused("pbkdf2-sha256: malformed");
  if (stored.iterations > pbkdf2IterationBound)
    return refused(`pbkdf2-sha256: ${stored.iterations} iterations are above ${pbkdf2IterationBound}`);
  return {
    ok: true,
    scheme: "pbkdf2-sha256",
    verify: (password) =>
      new Promise((resolve, reject) =>
        pbkdf2(password, stored.salt, stored.iterations, stored.key.length, "sha256", (error, derived) =>
          error ? reject(error) : resolve(sameKey(stored.key, derived)),
        ),
      ),
  };
};
