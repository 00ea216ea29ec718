import { LinkPurpose } from "@auth/proto/recovery";
import { z } from "zod";
import type { FlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";

const body = z.object({ token: fields.secret(512).describe("The `email_token` of the link in the e-mail") });

const responses = success({});

/**
 * Beyond the spec (docs/api-contract.md, "Changing the phone or the e-mail"): the token of the
 * e-mail change's link, with the API key alone (the link may be opened on another device), used
 * once; the recovery service, whose link it is, has identity make the new e-mail the user's, and
 * identity tells the old one. A used or unknown link (a recovery link too) is auth.token.invalid, an
 * old one auth.token.expired.
 */
export const emailConfirm = defineEndpoint({
  operation: "email/confirm",
  summary: "Confirm the new e-mail with the link sent to it",
  body,
  responses,
  examples: { request: { token: "Zk3vQ9xL2bN7cR1tY8wE5aS0dF6gH4jK" }, answers: [{}] },
  steps: [],
  errors: ["auth.token.invalid", "auth.token.expired", "auth.contact.unavailable"],
  rateLimit: "address",
  whileSuspended: "auth.user.restricted",
  handle,
});

async function handle(context: FlowContext<z.infer<typeof body>>): Promise<SuccessFields<typeof responses>> {
  await context.backends.recovery.redeemRecoveryLink({
    companyId: context.company.id,
    linkToken: context.body.token,
    purpose: LinkPurpose.EMAIL_CHANGE,
  });
  return {};
}
