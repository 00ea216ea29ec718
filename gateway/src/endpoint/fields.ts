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
  /**
   * The language the client asks for, on every endpoint with a body (docs/decisions.md, "Languages"):
   * a tag the suite does not speak is passed over, not refused. 35 characters is the length RFC 5646
   * asks every implementation to take.
   */
  language: z
    .string("must be a string")
    .max(35)
    .optional()
    .describe(
      "The language of the answer's error_message and of the SMS or e-mail the request sends: a BCP 47 tag (de, fr-CH); before Accept-Language, and passed over when the suite does not speak it",
    ),
};
