/**
 * True when the text holds a C0 control character (U+0000 to U+001F) or DEL (U+007F), which no
 * field of a request may hold (docs/decisions.md, "No control characters").
 */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Where the first string of a value that `matches` is, as its path (`accept_disclaimers.2`, "" for
 * the value itself); undefined when there is none.
 */
export function pathOfString(
  value: unknown,
  matches: (text: string) => boolean,
  path: readonly (string | number)[] = [],
): string | undefined {
  if (typeof value === "string") return matches(value) ? path.join(".") : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, inner] of entries) {
    const found = pathOfString(inner, matches, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
