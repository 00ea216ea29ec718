import { AuthError } from "@auth/errors";
import { ContactKind } from "@auth/proto/identity";
import { LinkPurpose } from "@auth/proto/recovery";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { beginContactChange } from "../../steps/contact-change.js";
import { maskEmail } from "../../steps/mask-email.js";

const body = z.object({ email: z.string().min(1).max(320).describe("The new e-mail address") });

const responses = success({
  user_email: z
    .string()
    .describe("The new e-mail, masked, which the link went to: the first character and the domain"),
});

/**
 * Beyond the spec (docs/api-contract.md, "Changing the phone or the e-mail"): the signed-in user,
 * from a session whose factors are fresh, asks for a new e-mail; identity keeps it pending, and the
 * recovery service e-mails a single-use link to it (the company's recovery page with
 * `email_token`, 15 minutes to live), spending one of the user's recovery messages. A company
 * without a recovery page has nowhere to send the link to: 409 recovery.email.notset.
 */
export const emailChange = defineEndpoint({
  operation: "email/change",
  summary: "Ask to change the user's e-mail: a link goes to the new one",
  body,
  responses,
  examples: {
    request: { email: "ann.new@acme.example" },
    answers: [{ user_email: "a*******@acme.example" }],
  },
  steps: [beginContactChange],
  errors: ["recovery.email.notset", "request.ratelimit.exceeded"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  if (!context.company.policy.recovery?.linkBase)
    throw new AuthError("recovery.email.notset", { detail: "the company has no recovery page to link to" });
  const { user, address } = await beginContactChange(context, ContactKind.EMAIL, context.body.email);
  await context.backends.recovery.sendRecoveryLink({
    companyId: context.company.id,
    userId: user.id,
    loginId: "",
    language: context.language,
    purpose: LinkPurpose.EMAIL_CHANGE,
  });
  return { user_email: maskEmail(address) };
}
