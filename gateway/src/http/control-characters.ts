/** True when the text holds a C0 control character (U+0000 to U+001F) or DEL (U+007F). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Where the first string with a control character is in a request body, as the field's path
 * (`login_id`, `accept_disclaimers.2`); undefined when there is none.
 */
export function fieldWithControlCharacter(
  value: unknown,
  path: readonly (string | number)[] = [],
): string | undefined {
  if (typeof value === "string") return hasControlCharacter(value) ? path.join(".") || "body" : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, inner] of entries) {
    const found = fieldWithControlCharacter(inner, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
