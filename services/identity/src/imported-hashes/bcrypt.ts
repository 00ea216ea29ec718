import { verify } from "@node-rs/bcrypt";
import { type ParsedHash, refused, type SchemeParser } from "./scheme.js";

/** bcrypt's cost is log2 of its rounds: 15 takes about a second and a half of one core. */
export const bcryptCostBounds = { min: 4, max: 15 };

const modular = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;

/** `$2a$`, `$2b$` and `$2y$` (PHP's), which differ only in bugs of old implementations that none of them keeps. */
export const parseBcrypt: SchemeParser = (passwordHash): ParsedHash | undefined => {
  const match = modular.exec(passwordHash);
  if (!match) return passwordHash.startsWith("$2") ? refused("bcrypt: malformed") : undefined;
  const cost = Number(match[1]);
  if (cost < bcryptCostBounds.min || cost > bcryptCostBounds.max)
    return refused(`bcrypt: cost ${cost} is outside ${bcryptCostBounds.min} to ${bcryptCostBounds.max}`);
  return { ok: true, scheme: "bcrypt", verify: (password) => verify(password, passwordHash) };
};
