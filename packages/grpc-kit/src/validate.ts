import { AuthError } from "@auth/errors";
import type { z } from "zod";

/** Checks a request against a schema; a bad one is INVALID_ARGUMENT naming the field. */
export function parseRequest<S extends z.ZodType>(schema: S, request: unknown): z.infer<S> {
  const result = schema.safeParse(request);
  if (result.success) return result.data;
  const detail = result.error.issues.map((issue) => `${issue.path.join(".") || "request"}: ${issue.message}`);
  throw new AuthError("request.validation.failed", { detail: detail.join("; ") });
}
