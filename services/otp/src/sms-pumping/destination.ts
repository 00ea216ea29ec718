import { phoneNumbers } from "../phone-numbers.js";

/** Where a code goes, as the limits against SMS pumping see it: never the number itself. */
export interface SmsDestination {
  /** ISO 3166-1 alpha-2; "ZZ" (CLDR's unknown region) for a number of none, such as +882 or +979. */
  region: string;
  /** The country calling code and the next three digits, as "+44 909"; empty for a number not read. */
  prefix: string;
}

export const unknownRegion = "ZZ";

/** The region and prefix of an E.164 number (docs/decisions.md, "SMS pumping"). */
export async function smsDestinationOf(e164: string): Promise<SmsDestination> {
  const { parsePhoneNumberFromString } = await phoneNumbers();
  const phone = parsePhoneNumberFromString(e164);
  if (!phone) return { region: unknownRegion, prefix: "" };
  return {
    region: phone.country ?? unknownRegion,
    prefix: `+${phone.countryCallingCode} ${phone.nationalNumber.slice(0, 3)}`,
  };
}
