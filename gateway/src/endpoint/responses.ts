import type { ErrorCode } from "@auth/errors";
import { catalogues } from "@auth/i18n";
import { z } from "zod";
import { passkeyRequestOptions } from "./passkeys.js";
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

/**
 * What a login that reaches checkotp is told of the user's second factors: `user_phone` when an SMS
 * was sent (none for a user with an authenticator app or a passkey: docs/decisions.md, "TOTP"),
 * `passkey_options` when the user has a passkey (docs/decisions.md, "Passkeys").
 */
export const secondFactorChallenge = () => ({
  user_phone: userPhone.optional(),
  passkey_options: passkeyRequestOptions.optional(),
});

// Factories, so that every endpoint's schema is its own instance (a document component of its own).
export const toCheckotp = () => inState("checkotp", secondFactorChallenge());
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

/** Values of the OpenAPI document's examples, shared by the endpoints whose answers they fit. */
const sample = {
  session_token: "q3Zr8Xw1VbN6tYk0LmP4sQe7HjU2cFa9GdR5oIi8KlE",
  disclaimer: {
    code: "terms",
    title: "Terms of use",
    description: "The rules for using Acme's services.",
    link: "https://acme.example/legal/terms",
  },
  passwordRules: {
    password_regex: null,
    password_regex_description: "At least 15 and at most 256 characters. Not a common or breached password.",
  },
};
export const exampleDisclaimer: z.output<typeof disclaimer> = sample.disclaimer;
export const exampleToken = sample.session_token;

/** An example answer of each state the password and OTP steps lead to. */
export const answerExamples = {
  checkotp: { session_token: sample.session_token, session_state: "checkotp", user_phone: "+1********67" },
  setpassword: { session_token: sample.session_token, session_state: "setpassword", ...sample.passwordRules },
  authorized: {
    session_token: sample.session_token,
    session_state: "authorized",
    profile_mnemocode: "P-1042",
  },
  recoverySetpassword: {
    session_token: sample.session_token,
    session_state: "recovery-setpassword",
    ...sample.passwordRules,
  },
} as const satisfies {
  checkotp: AnswerLeadingTo<"checkotp">;
  setpassword: AnswerLeadingTo<"setpassword">;
  authorized: AnswerLeadingTo<"authorized">;
  recoverySetpassword: WithoutStatus<z.output<ReturnType<typeof toRecoverySetpassword>>>;
};

const captchaState = { shape: { captcha_required: z.boolean() }, example: { captcha_required: true } };
// On checkpassword and checkcredentials; recovery/recover adds nothing.
const captchaDemand = {
  shape: { captcha_required: z.literal(true).optional() },
  example: { captcha_required: true },
};

/**
 * The fields some errors add to the envelope (spec 7; docs/api-contract.md, "Requests and
 * responses"), and an example of them for the OpenAPI document.
 */
const errorFields: Partial<Record<ErrorCode, { shape: z.ZodRawShape; example: Record<string, unknown> }>> = {
  "auth.password.invalid": captchaState,
  "auth.credentials.invalid": captchaState,
  "auth.captcha.missing": captchaDemand,
  "auth.captcha.invalid": captchaDemand,
  "request.validation.failed": {
    shape: {
      password_regex_description: z
        .string()
        .optional()
        .describe("On setpassword's 422, a refused new password: the rule it breaks"),
    },
    example: {},
  },
  "auth.disclaimer.invalid": {
    shape: { disclaimers_required: disclaimersRequired },
    example: { disclaimers_required: [sample.disclaimer] },
  },
};

const errorMessage = z
  .string()
  .describe(
    "What to tell the user, in the request's language (the body's language, Accept-Language, the company's default, English), in the company's own words where it has them",
  );

/** An example of the error answer with this code. */
export function errorExample(code: ErrorCode): Record<string, unknown> {
  return {
    status: "error",
    error_code: code,
    error_message: catalogues.en.messages.errors[code],
    ...errorFields[code]?.example,
  };
}

/** The error envelope with one of these codes, and the fields that code adds. */
export function errorResponse(codes: readonly ErrorCode[]) {
  const byFields = new Map<z.ZodRawShape | undefined, ErrorCode[]>();
  for (const code of codes) {
    const shape = errorFields[code]?.shape;
    byFields.set(shape, [...(byFields.get(shape) ?? []), code]);
  }
  const variants = [...byFields].map(([fields, group]) =>
    z.strictObject({
      status: z.literal("error"),
      error_code: z.enum(group),
      error_message: errorMessage,
      ...fields,
    }),
  );
  const [first, ...others] = variants;
  return first && others.length === 0 ? first : z.union(variants);
}

/** The codes whose answers carry `Retry-After`: auth.restricted for a locked-out login ID, not for a suspended company. */
export const retryAfter: Partial<Record<ErrorCode, "always" | "sometimes">> = {
  "request.ratelimit.exceeded": "always",
  "auth.restricted": "sometimes",
};
