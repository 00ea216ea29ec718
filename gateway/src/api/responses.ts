import type { ErrorCode } from "@auth/errors";
import { z } from "zod";
import type { StateName } from "../flows/states.js";
import type { Operation } from "../flows/transitions.js";

/**
 * The response bodies of every endpoint (spec section 4, with the envelope of
 * docs/api-contract.md, "Requests and responses"): the flows return their fields typed by these
 * schemas, and the OpenAPI document is generated from them.
 */

/** spec 2.3 */
export const disclaimer = z.strictObject({
  code: z.string(),
  title: z.string(),
  description: z.string(),
  link: z.string().describe("URL of the legal disclaimer text"),
});

const disclaimersRequired = z.array(disclaimer).describe("The disclaimers still to accept");
const userPhone = z.string().describe("The user's phone, masked: the country code and the last two digits");

/** spec 2.4: the fields that come with state setpassword and recovery-setpassword. */
export const passwordRules = z.object({
  password_regex: z.string().nullable().describe("Regex a new password must match; null: no check"),
  password_regex_description: z.string().nullable(),
});

function success<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ status: z.literal("success"), ...shape });
}

function inState<State extends StateName, Shape extends z.ZodRawShape>(state: State, shape: Shape) {
  return success({
    session_token: z.string().describe("Bearer token of the session"),
    session_state: z.literal(state),
    ...shape,
  });
}

// Factories, so that every endpoint's schema is its own instance (a document component of its own).
const toCheckotp = () => inState("checkotp", { user_phone: userPhone });
const toSetpassword = () => inState("setpassword", passwordRules.shape);
const toAuthorized = () =>
  inState("authorized", {
    profile_mnemocode: z.string().describe("The user's profile, for the Profile API"),
  });
const toRecoverySetpassword = () => inState("recovery-setpassword", passwordRules.shape);
const afterPassword = () =>
  z.discriminatedUnion("session_state", [toCheckotp(), toSetpassword(), toAuthorized()]);

export const successResponses = {
  login: z.discriminatedUnion("session_state", [
    inState("checkpassword", {
      disclaimers_required: disclaimersRequired,
      captcha_required: z.boolean().describe("true: checkpassword must carry captcha_response"),
    }),
    inState("checkotp", { disclaimers_required: disclaimersRequired, user_phone: userPhone }),
  ]),
  checkpassword: afterPassword(),
  checkcredentials: afterPassword(),
  checkotp: z.discriminatedUnion("session_state", [toSetpassword(), toAuthorized()]),
  renewotp: success({ user_phone: userPhone }),
  // In state recovery-setpassword no token: the client logs in again.
  setpassword: z.union([toAuthorized(), success({})]),
  oauth: z.discriminatedUnion("session_state", [
    inState("acceptdisclaimers", { disclaimers_required: disclaimersRequired }),
    toAuthorized(),
  ]),
  acceptdisclaimers: toAuthorized(),
  logout: success({}),
  "recovery/recover": z.discriminatedUnion("verification", [
    inState("recovery-checkotp", { verification: z.literal("PHONE"), user_phone: userPhone }),
    inState("recovery-checkquestion", {
      verification: z.literal("QUESTION"),
      control_question: z.string(),
    }),
    success({
      verification: z.literal("MAIL"),
      user_email: z.string().describe("The user's e-mail, masked: the first character and the domain"),
    }),
  ]),
  "recovery/checkotp": toRecoverySetpassword(),
  "recovery/renewotp": success({}),
  "recovery/checkquestion": toRecoverySetpassword(),
  "recovery/checklink": toRecoverySetpassword(),
} satisfies Record<Operation, z.ZodType>;

// An answer of no fields besides `status` is Record<string, undefined>, so that a flow cannot add one.
type WithoutStatus<T> = T extends unknown
  ? Exclude<keyof T, "status"> extends never
    ? Record<string, undefined>
    : Omit<T, "status">
  : never;

/** The fields of a success answer besides `status`, which the envelope adds. */
export type SuccessFields<O extends Operation> = WithoutStatus<z.output<(typeof successResponses)[O]>>;

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
