import { parseOptions, verify } from "@node-rs/argon2";
import { type ParsedHash, refused, type SchemeParser } from "./scheme.js";

/** Memory in KiB (256 MiB), passes and lanes. */
export const argon2Bounds = { memoryCost: 262_144, timeCost: 10, parallelism: 16 };

/** PHC strings of argon2id, argon2i and argon2d, the product's own hashes among them. */
export const parseArgon2: SchemeParser = (passwordHash): ParsedHash | undefined => {
  if (!/^\$argon2(id|i|d)\$/.test(passwordHash)) return undefined;
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(passwordHash);
  } catch {
    return refused("argon2: malformed");
  }
  for (const bound of ["memoryCost", "timeCost", "parallelism"] as const) {
    const used = options[bound] ?? 0;
    if (used > argon2Bounds[bound])
      return refused(`argon2: ${bound} ${used} is above ${argon2Bounds[bound]}`);
  }
  return { ok: true, scheme: "argon2", verify: (password) => verify(passwordHash, password) };
};
