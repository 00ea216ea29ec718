/**
 * Whether an event type matches `--type` as NATS matches a subject: dot-separated tokens, `*` for
 * one token, `>` for the rest. The events file is filtered by the patterns the stream filters by.
 */
export function typeMatches(pattern: string, type: string): boolean {
  const wanted = pattern.split(".");
  const tokens = type.split(".");
  for (const [index, token] of wanted.entries()) {
    if (token === ">") return tokens.length > index;
    if (index >= tokens.length || (token !== "*" && token !== tokens[index])) return false;
  }
  return wanted.length === tokens.length;
}
