import { AuthError } from "@auth/errors";
import type { z } from "zod";

/** Checks a request against a schema; a bad one is INVALID_ARGUMENT naming the field. */
export function parseRequest<S extends z.ZodType>(schema: S, request: unknown): z.infer<S> {
  const result = schema.safeParse(request);
  if (result.success) return result.data;
  const detail = result.error.issues.map((issue) => `${issue.path.join(".") || "request"}: ${issue.message}`);
  throw new AuthError("request.validation.failed", { detail: detail.join("; ") });
}

/** What a message may be before a schema's defaults fill it. */
type DeepPartial<T> = T extends Date
  ? T
  : T extends (infer Item)[]
    ? DeepPartial<Item>[]
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

type FieldsNotIn<A, B> = Exclude<keyof A, keyof B>;

/** Compiles only when the schema reads every field of the message and no other. */
type SameFields<Input, Message> = [FieldsNotIn<Input, Message>, FieldsNotIn<Message, Input>] extends [
  never,
  never,
]
  ? unknown
  : {
      "fields the schema and the message do not share":
        | FieldsNotIn<Input, Message>
        | FieldsNotIn<Message, Input>;
    };

/**
 * The schema of a message (a request, or a message inside one), held to the type ts-proto generated
 * from the proto: a field added to, removed from or retyped in the proto breaks the build until its
 * schema follows, and a handler reads only what the schema checked (its output, which transforms
 * may shape for the handler).
 */
export function messageSchema<Message extends object>() {
  return <S extends z.ZodType<unknown, DeepPartial<Message>>>(
    schema: S & SameFields<z.input<S>, Message>,
  ): S => schema;
}
