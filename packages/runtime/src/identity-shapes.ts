/**
 * What identity owns and other processes check too, before they ask it: the gateway the company
 * code of a URL, authctl the password it is given.
 */

/** Company codes (docs/decisions.md): 1 to 63 characters of a-z 0-9 _ -, starting with a letter or digit. */
export const companyCodeShape = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * A client's X-Device-Id (docs/api-contract.md, "Known devices"): 16 to 128 characters of
 * A-Z a-z 0-9 _ -; one of another shape is taken as absent, never refused.
 */
export const deviceIdShape = /^[A-Za-z0-9_-]{16,128}$/;

/** The device id as sent when it has the shape, else "" (none). */
export const deviceIdOf = (header: string | undefined): string =>
  header !== undefined && deviceIdShape.test(header) ? header : "";

/**
 * docs/api-contract.md, "Passwords": every password has 8 to 256 characters (what an operator may
 * set); one a user sets meets the rules of docs/security.md, "Passwords", as well.
 */
export const passwordLength = { min: 8, max: 256 } as const;

/**
 * docs/security.md, "Passwords": the least length a company's policy may ask of a password a user
 * sets, for users without a second factor and with one.
 */
export const minPasswordLengthFloor = { withoutSecondFactor: 15, withSecondFactor: 8 } as const;

/** The least length of a password a user sets: the policy's for a user with a second factor, or without. */
export function minPasswordLengthOf(
  policy: { minPasswordLength: number; minPasswordLengthWithSecondFactor: number },
  hasSecondFactor: boolean,
): number {
  return hasSecondFactor ? policy.minPasswordLengthWithSecondFactor : policy.minPasswordLength;
}
