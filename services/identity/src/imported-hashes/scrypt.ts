import { scrypt } from "node:crypto";
import { decimal, decodeBase64, type ParsedHash, refused, type SchemeParser, sameKey } from "./scheme.js";

/** N·r·p: 2^21 is 256 MiB of memory at p = 1 (128·N·r bytes), as argon2's bound. */
export const scryptWorkBound = 2 ** 21;

interface ScryptHash {
  cost: number;
  blockSize: number;
  parallelization: number;
  salt: Buffer;
  key: Buffer;
}

/** passlib's and the PHC form: `$scrypt$ln=16,r=8,p=1$<salt>$<key>`, both in (adapted) base64. */
function phc(passwordHash: string): ScryptHash | undefined {
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(passwordHash);
  const [log2Cost, blockSize, parallelization] = [match?.[1], match?.[2], match?.[3]].map(decimal);
  const [salt, key] = [match?.[4], match?.[5]].map((text) => text && decodeBase64(text));
  if (log2Cost === undefined || log2Cost > 30 || !blockSize || !parallelization || !salt || !key)
    return undefined;
  return { cost: 2 ** log2Cost, blockSize, parallelization, salt, key };
}

/** werkzeug's `scrypt:32768:8:1$<salt>$<key in hex>`: the salt's text is the salt. */
function werkzeug(passwordHash: string): ScryptHash | undefined {
  const match = /^scrypt:(\d+):(\d+):(\d+)\$([^$]+)\$((?:[0-9a-f]{2})+)$/.exec(passwordHash);
  const [cost, blockSize, parallelization] = [match?.[1], match?.[2], match?.[3]].map(decimal);
  if (!match?.[4] || !match[5] || !cost || !blockSize || !parallelization) return undefined;
  return {
    cost,
    blockSize,
    parallelization,
    salt: Buffer.from(match[4], "utf8"),
    key: Buffer.from(match[5], "hex"),
  };
}

export const parseScrypt: SchemeParser = (passwordHash): ParsedHash | undefined => {
  const isScrypt = passwordHash.startsWith("$scrypt$") || passwordHash.startsWith("scrypt:");
  if (!isScrypt) return undefined;
  const stored = phc(passwordHash) ?? werkzeug(passwordHash);
  if (!stored || stored.cost < 2 || (stored.cost & (stored.cost - 1)) !== 0 || stored.key.length < 16)
    return refused("scrypt: malformed");
  const work = stored.cost * stored.blockSize * stored.parallelization;
  if (work > scryptWorkBound) return refused(`scrypt: N·r·p ${work} is above ${scryptWorkBound}`);
  const options = {
    N: stored.cost,
    r: stored.blockSize,
    p: stored.parallelization,
    maxmem: 129 * stored.cost * stored.blockSize + 1024 * stored.blockSize * stored.parallelization,
  };
  return {
    ok: true,
    scheme: "scrypt",
    verify: (password) =>
      new Promise((resolve, reject) =>
        scrypt(password, stored.salt, stored.key.length, options, (error, derived) =>
          error ? reject(error) : resolve(sameKey(stored.key, derived)),
        ),
      ),
  };
};
