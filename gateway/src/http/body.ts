import { AuthError } from "@auth/errors";
import { hasControlCharacter, pathOfString } from "@auth/runtime";
import type { z } from "zod";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The request body as a JSON object: an empty body is `{}`; anything else is request.validation.failed. */
export function parseJsonObject(raw: unknown): Record<string, unknown> {
  if (!Buffer.isBuffer(raw) || raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(raw));
  } catch {
    throw new AuthError("request.validation.failed", { detail: "body is not JSON in UTF-8" });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AuthError("request.validation.failed", { detail: "body is not a JSON object" });
  }
  return value as Record<string, unknown>;
}

/**
 * The body as the endpoint's schema reads it; a mismatch, or a control character in any of its
 * strings (docs/decisions.md, "Requests and responses"), is request.validation.failed.
 */
export function validateBody<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) {
    const field = pathOfString(result.data, hasControlCharacter);
    if (field === undefined) return result.data;
    throw new AuthError("request.validation.failed", {
      detail: `${field || "body"}: must not contain control characters`,
    });
  }
  const detail = result.error.issues
    .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
    .join("; ");
  throw new AuthError("request.validation.failed", { detail });
}
