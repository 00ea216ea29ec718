import type { Reply } from "./api.js";

/**
 * The refusals that say the secret typed was compared and is wrong (an SMS code is spent by then):
 * only these clear its field for the next try. After any other (the terms not accepted, an empty
 * field, a 503, a rate limit, no answer at all) nothing was checked, and the field keeps what the
 * user typed.
 */
const wrongSecret = new Set([
  "auth.password.invalid",
  "auth.otp.invalid",
  "auth.backupcode.invalid",
  "auth.controlanswer.invalid",
]);

/** A field the user types a secret into. */
interface SecretField {
  value: string;
  focus(): void;
}

/** Clears the fields, the focus in the first, when the reply says that what was typed is wrong. */
export function clearWhenWrong(reply: Reply, ...fields: SecretField[]): void {
  if (!wrongSecret.has(reply.answer.error_code ?? "")) return;
  for (const field of fields) field.value = "";
  fields[0]?.focus();
}
