import { z } from "zod";

/** Request body fields shared by several endpoints. */
export const fields = {
  loginId: z.string("must be a string").min(1, "must not be empty").max(320),
  secret: z.string("must be a string").max(1_024),
  captchaResponse: z.string("must be a string").max(8_192).optional(),
  acceptDisclaimers: z
    .array(z.string("must be a string").max(100), "must be an array of codes")
    .max(100)
    .optional(),
};
