import { z } from "zod";

/** The answers that give a user backup codes, shown once (docs/decisions.md, "Backup codes"). */

/** A set as the examples of the OpenAPI document show it. */
export const backupCodeExamples = [
  "K7QF-2MXP-9TDA",
  "R4NW-8CJH-3VEB",
  "P2ZS-6MGK-5YQT",
  "H9TA-4BWN-7DMC",
  "X3EV-1QRJ-8KPF",
  "M6JD-9SVC-2NHW",
  "B8PK-5YTE-4NGA",
  "W2CH-7FMR-6QVS",
  "T5GY-3XAB-9RJE",
  "F1HN-8DKW-2PZM",
];

/**
 * The user's first set, issued with a first passkey or app to a user who had none
 * (docs/decisions.md, "Passkeys"): the session that enrolls it may not generate codes afterwards.
 */
export const firstBackupCodes = () =>
  z
    .array(z.string())
    .optional()
    .describe(
      "The user had no backup codes: the user's first set, each good once, issued with this factor; shown this once. Absent otherwise",
    );

/** identity's answer's codes as the field: absent when none were issued. */
export const firstBackupCodesOf = (codes: string[]) => (codes.length > 0 ? codes : undefined);
