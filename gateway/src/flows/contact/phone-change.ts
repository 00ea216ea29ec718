import { ContactKind } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { type SuccessFields, success, userPhone } from "../../endpoint/responses.js";
import { beginContactChange } from "../../steps/contact-change.js";
import { sendOtp } from "../../steps/otp-delivery.js";

const body = z.object({
  phone: z
    .string()
    .min(1)
    .max(50)
    .describe("The new phone: E.164, or national in the company's default region"),
});

const responses = success({
  user_phone: userPhone.describe("The new phone, masked, which the code went to"),
});

/**
 * Beyond the spec (docs/api-contract.md, "Changing the phone or the e-mail"): the signed-in user,
 * from a session whose factors are fresh, asks for a new phone; identity keeps it pending, and the
 * otp service sends a code to it (budgets of codes, SMS pumping limits and one of the user's
 * recovery messages). Nothing changes until auth/phone/confirm brings the code back.
 */
export const phoneChange = defineEndpoint({
  operation: "phone/change",
  summary: "Ask to change the user's phone: a code goes to the new one",
  body,
  responses,
  examples: { request: { phone: "+4915112345678" }, answers: [{ user_phone: "+49*********78" }] },
  steps: [beginContactChange, sendOtp],
  errors: [],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const { user } = await beginContactChange(context, ContactKind.PHONE, context.body.phone);
  return {
    user_phone: await sendOtp(context, user, context.session.sessionId, OtpPurpose.PHONE_CHANGE),
  };
}
