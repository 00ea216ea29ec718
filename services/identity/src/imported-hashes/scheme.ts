import { timingSafeEqual } from "node:crypto";

/**
 * A password hash as read: of a known scheme within its cost bounds, with what verifies a password
 * against it, or refused with the reason (docs/decisions.md, "Imported password hashes").
 */
export type ParsedHash =
  | { ok: true; scheme: string; verify: (password: string) => Promise<boolean> }
  | { ok: false; reason: string };

/** What each scheme's parser answers: undefined when the hash is not of its scheme. */
export type SchemeParser = (passwordHash: string) => ParsedHash | undefined;

export const refused = (reason: string): ParsedHash => ({ ok: false, reason });

/** Whether a derived key is the stored one, in a time that does not depend on where they differ. */
export function sameKey(stored: Buffer, derived: Buffer): boolean {
  return stored.length === derived.length && timingSafeEqual(stored, derived);
}

/**
 * Bytes of the base64 of PHC strings (no padding) or passlib's adapted base64, which has `.` in
 * place of `+`; undefined when the text is neither.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/.]+={0,2}$/.test(text)) return undefined;
  return Buffer.from(text.replaceAll(".", "+"), "base64");
}

/** A number written in at most 10 decimal digits, or undefined. */
export function decimal(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  return Number(text);
}
