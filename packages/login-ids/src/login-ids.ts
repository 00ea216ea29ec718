import { LoginIdKind } from "@auth/proto/identity";
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js";

export { checkSubjectOf } from "./check-subject.js";

export interface NormalizedLoginId {
  kind: LoginIdKind.PHONE | LoginIdKind.EMAIL | LoginIdKind.LOGIN_NAME;
  value: string;
}

const phoneShape = /^\+?[\d\s().-]{4,}$/;

export function regionOf(code: string): CountryCode | undefined {
  const upper = code.toUpperCase();
  return isSupportedCountry(upper) ? upper : undefined;
}

/** E.164 of a phone number, read with the company's region when it has no country code. */
export function normalizePhone(input: string, defaultRegion: string): string | undefined {
  const trimmed = input.trim();
  if (!phoneShape.test(trimmed)) return undefined;
  const phone = parsePhoneNumberFromString(trimmed, regionOf(defaultRegion));
  return phone?.isValid() ? phone.number : undefined;
}

export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

export function normalizeLoginName(input: string): string {
  return input.trim().normalize("NFKC").toLowerCase();
}

/**
 * What a login ID is and how it is compared (docs/api-contract.md, "Login"): an e-mail (it has an
 * @) trimmed and lower-cased; a valid phone number as E.164; anything else a login name, trimmed
 * and compared case-insensitively.
 */
export function normalizeLoginId(input: string, defaultRegion: string): NormalizedLoginId {
  if (input.includes("@")) return { kind: LoginIdKind.EMAIL, value: normalizeEmail(input) };
  const phone = normalizePhone(input, defaultRegion);
  if (phone) return { kind: LoginIdKind.PHONE, value: phone };
  return { kind: LoginIdKind.LOGIN_NAME, value: normalizeLoginName(input) };
}
