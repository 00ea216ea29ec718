import { AuthError } from "@auth/errors";
import { parseRequest } from "@auth/grpc-kit";
import { hasControlCharacter, pathOfString } from "@auth/runtime";
import { z } from "zod";

/** The string schema, refusing control characters as the gateway does in every body (docs/decisions.md). */
export const withoutControlCharacters = (schema: z.ZodString) =>
  schema.refine((value) => !hasControlCharacter(value), "must not contain control characters");

/** A one-line text field of a request (a login ID, a secret, a name): at most `max` characters. */
export const text = (max: number) => withoutControlCharacters(z.string().max(max));

/**
 * parseRequest, and request.validation.failed for NUL anywhere in the request, also in the fields
 * that may hold other control characters (a policy's message templates): PostgreSQL stores no NUL
 * in text or jsonb, and would fail the query instead.
 */
export function parseStorableRequest<S extends z.ZodType>(schema: S, request: unknown): z.infer<S> {
  const input = parseRequest(schema, request);
  const field = pathOfString(input, (text) => text.includes("\u0000"));
  if (field !== undefined) {
    throw new AuthError("request.validation.failed", {
      detail: `${field || "request"}: must not contain NUL`,
    });
  }
  return input;
}
