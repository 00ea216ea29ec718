import type { ErrorCode } from "@auth/errors";
import { z } from "zod";
import type { StateName } from "./states.js";

/**
 * The parts of the endpoints' response bodies (spec section 4, with the envelope of
 * docs/api-contract.md, "Requests and responses"): each endpoint builds its response schema from
 * them, its flow returns fields typed by that schema, and the OpenAPI document is generated from it.
 */

/** spec 2.3 */
export const disclaimer = z.strictObject({
  code: z.string(),
  title: z.string(),
  description: z.string(),
  link: z.string().describe("URL of the legal disclaimer text"),
});

export const disclaimersRequired = z.array(disclaimer).describe("The disclaimers still to accept");
export const userPhone = z
  .string()
  .describe("The user's phone, masked: the country code and the last two digits");

/** spec 2.4: the fields that come with state setpassword and recovery-setpassword. */
export const passwordRules = z.object({
  password_regex: z.string().nullable().describe("Regex a new password must match; null: no check"),
  password_regex_description: z.string().nullable(),
});

export function success<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ status: z.literal("success"), ...shape });
}

export function inState<State extends StateName, Shape extends z.ZodRawShape>(state: State, shape: Shape) {
  return success({
    session_token: z.string().describe("Bearer token of the session"),
    session_state: z.literal(state),
    ...shape,
  });
}

// Factories, so that every endpoint's schema is its own instance (a document component of its own).
export const toCheckotp = () => inState("checkotp", { user_phone: userPhone });
export const toSetpassword = () => inState("setpassword", passwordRules.shape);
export const toAuthorized = () =>
  inState("authorized", {
    profile_mnemocode: z.string().describe("The user's profile, for the Profile API"),
  });
export const toRecoverySetpassword = () => inState("recovery-setpassword", passwordRules.shape);
export const afterPassword = () =>
  z.discriminatedUnion("session_state", [toCheckotp(), toSetpassword(), toAuthorized()]);

// An answer of no fields besides `status` is Record<string, undefined>, so that a flow cannot add one.
type WithoutStatus<T> = T extends unknown
  ? Exclude<keyof T, "status"> extends never
    ? Record<string, undefined>
    : Omit<T, "status">
  : never;

/** The fields of a success answer of this response schema besides `status`, which the envelope adds. */
export type SuccessFields<Schema extends z.ZodType> = WithoutStatus<z.output<Schema>>;

/** The success answers that lead to one of these states, for the steps several flows share. */
export type AnswerLeadingTo<State extends "checkotp" | "setpassword" | "authorized"> = WithoutStatus<
  z.output<
    ReturnType<
      {
        checkotp: typeof toCheckotp;
        setpassword: typeof toSetpassword;
        authorized: typeof toAuthorized;
      }[State]
    >
  >
>;

const captchaState = { captcha_required: z.boolean() };
// On checkpassword and checkcredentials; recovery/recover adds nothing.
const captchaDemand = { captcha_required: z.literal(true).optional() };

/** The fields some errors add to the envelope (spec 7; docs/api-contract.md, "Requests and responses"). */
const errorFields: Partial<Record<ErrorCode, z.ZodRawShape>> = {
  "auth.password.invalid": captchaState,
  "auth.credentials.invalid": captchaState,
  "auth.captcha.missing": captchaDemand,
  "auth.captcha.invalid": captchaDemand,
  "auth.disclaimer.invalid": { disclaimers_required: disclaimersRequired },
};

/** The error envelope with one of these codes, and the fields that code adds. */
export function errorResponse(codes: readonly ErrorCode[]) {
  const byFields = new Map<z.ZodRawShape | undefined, ErrorCode[]>();
  for (const code of codes)
    byFields.set(errorFields[code], [...(byFields.get(errorFields[code]) ?? []), code]);
  const variants = [...byFields].map(([fields, group]) =>
    z.strictObject({ status: z.literal("error"), error_code: z.enum(group), ...fields }),
  );
  const [first, ...others] = variants;
  return first && others.length === 0 ? first : z.union(variants);
}

/** The codes whose answers carry `Retry-After`: auth.restricted for a locked-out login ID, not for a suspended company. */
export const retryAfter: Partial<Record<ErrorCode, "always" | "sometimes">> = {
  "request.ratelimit.exceeded": "always",
  "auth.restricted": "sometimes",
};

/** The user's status, which most flows check. */
export const userStatusErrors: ErrorCode[] = ["auth.user.restricted", "auth.user.closed", "auth.user.denied"];
