/**
 * What identity owns and other processes check too, before they ask it: the gateway the company
 * code of a URL, authctl the password it is given.
 */

/** Company codes (docs/decisions.md): 1 to 63 characters of a-z 0-9 _ -, starting with a letter or digit. */
export const companyCodeShape = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** docs/api-contract.md, "Passwords": 8 to 256 characters, and the company's regex when it sets one. */
export const passwordLength = { min: 8, max: 256 } as const;
