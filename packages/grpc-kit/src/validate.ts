import { AuthError } from "@auth/errors";
import type { z } from "zod";

/** Checks a request against a schema; a bad one is INVALID_ARGUMENT naming the field. */
export function parseRequest<S extends z.ZodType>(schema: S, request: unknown): z.infer<S> {
  const result = schema.safeParse(request);
  if (result.success) return result.data;
  const detail = result.error.issues.map((issue) => `${issue.path.join(".") || "request"}: ${issue.message}`);
  throw new AuthError("request.validation.failed", { detail: detail.join("; ") });
}

type FieldsNotIn<A, B> = Exclude<keyof A, keyof B>;

/** Compiles only when the schema checks every field of the message and no other. */
type SameFields<Output, Message> = [FieldsNotIn<Output, Message>, FieldsNotIn<Message, Output>] extends [
  never,
  never,
]
  ? unknown
  : {
      "fields the schema and the message do not share":
        | FieldsNotIn<Output, Message>
        | FieldsNotIn<Message, Output>;
    };

/**
 * The schema of a message (a request, or a message inside one), held to the type ts-proto generated
 * from the proto: a field added to, removed from or retyped in the proto breaks the build until its
 * schema follows, and a handler reads only what the schema checked (its output).
 */
export function messageSchema<Message extends object>() {
  return <S extends z.ZodType<Partial<Message>>>(schema: S & SameFields<z.output<S>, Message>): S => schema;
}
