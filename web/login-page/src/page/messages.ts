import type { Reply } from "./api.js";
import { errorText, text } from "./words.js";

/** Messages of some steps in place of the general ones. */
export type Messages = Partial<Record<string, string>>;

/** "Try again in 5 seconds." for a Retry-After. */
export function waitText(seconds: number): string {
  return seconds < 120
    ? text("wait.seconds", { seconds })
    : text("wait.minutes", { minutes: Math.ceil(seconds / 60) });
}

/**
 * The message for a failed call, with the wait it was told to keep: the step's own, else the error
 * code's (the `errors` messages, one per code of packages/errors/src/codes.ts), else one that names
 * the code.
 */
export function messageFor(reply: Reply, messages: Messages = {}): string {
  const code = reply.answer.error_code ?? "internal.error";
  const message = messages[code] ?? errorText(code) ?? text("error.unknown", { code });
  return reply.retryAfterSeconds ? `${message} ${waitText(reply.retryAfterSeconds)}` : message;
}
