import { z } from "zod";

/**
 * A secret: a password, a code, an answer or a credential the request presents. Never empty: an
 * empty one is request.validation.failed (400), refused with the body before the flow calls any
 * service, so that a form sent with its field left empty spends no budget and burns no code
 * (docs/api-contract.md, "Requests and responses"). The OpenAPI document marks it `format: password`.
 */
const secret = (maxLength = 1_024) =>
  z.string("must be a string").min(1, "must not be empty").max(maxLength).meta({ format: "password" });

/** Request body fields shared by several endpoints. */
export const fields = {
  loginId: z.string("must be a string").min(1, "must not be empty").max(320),
  secret,
  captchaResponse: z.string("must be a string").max(8_192).optional(),
  acceptDisclaimers: z
    .array(z.string("must be a string").max(100), "must be an array of codes")
    .max(100)
    .optional(),
};
