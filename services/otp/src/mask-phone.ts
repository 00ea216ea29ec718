import { phoneNumbers } from "./phone-numbers.js";

/**
 * docs/api-contract.md, "One-time passwords": the country calling code and the last two digits
 * stay, every other digit is `*`.
 */
export async function maskPhone(e164: string): Promise<string> {
  const { parsePhoneNumberFromString } = await phoneNumbers();
  const phone = parsePhoneNumberFromString(e164);
  const callingCode = phone?.countryCallingCode ?? "";
  const national = phone ? phone.nationalNumber : e164.replace(/\D/g, "");
  const shown = national.slice(-2);
  return `+${callingCode}${"*".repeat(Math.max(national.length - shown.length, 0))}${shown}`;
}
