import { parsePhoneNumberFromString } from "libphonenumber-js";

/**
 * docs/api-contract.md, "One-time passwords": the country calling code and the last two digits
 * stay, every other digit is `*`.
 */
export function maskPhone(e164: string): string {
  const phone = parsePhoneNumberFromString(e164);
  const callingCode = phone?.countryCallingCode ?? "";
  const national = phone ? phone.nationalNumber : e164.replace(/\D/g, "");
  const shown = national.slice(-2);
  return `+${callingCode}${"*".repeat(Math.max(national.length - shown.length, 0))}${shown}`;
}
