import { AuthError } from "@auth/errors";
import { parseRequest } from "@auth/grpc-kit";
import { z } from "zod";

/** True when the text holds a C0 control character (U+0000 to U+001F) or DEL (U+007F). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The string schema, refusing control characters as the gateway does in every body (docs/decisions.md). */
export const withoutControlCharacters = (schema: z.ZodString) =>
  schema.refine((value) => !hasControlCharacter(value), "must not contain control characters");

/** A one-line text field of a request (a login ID, a secret, a name): at most `max` characters. */
export const text = (max: number) => withoutControlCharacters(z.string().max(max));

/** Where the first string holding NUL is in a value, as a path (`policy.mail.bodyTemplate`). */
function fieldWithNul(value: unknown, path: readonly (string | number)[]): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") || "request" : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, inner] of entries) {
    const found = fieldWithNul(inner, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * parseRequest, and request.validation.failed for NUL anywhere in the request, also in the fields
 * that may hold other control characters (a policy's message templates): PostgreSQL stores no NUL
 * in text or jsonb, and would fail the query instead.
 */
export function parseStorableRequest<S extends z.ZodType>(schema: S, request: unknown): z.infer<S> {
  const input = parseRequest(schema, request);
  const field = fieldWithNul(input, []);
  if (field !== undefined) {
    throw new AuthError("request.validation.failed", { detail: `${field}: must not contain NUL` });
  }
  return input;
}
