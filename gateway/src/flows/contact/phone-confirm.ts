import { OtpPurpose } from "@auth/proto/otp";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { owns } from "../../factors/second-factors.js";
import { smsCode } from "../../factors/sms-code.js";
import { assertOtpInSession } from "../../steps/otp-check.js";
import { wrongSecret } from "../../steps/secret-checks.js";
import { currentUser } from "../../steps/user-status.js";

const body = z.object({ code: fields.secret().describe("The code the SMS to the new phone carries") });

const responses = success({});

const wrongCode = wrongSecret("auth.otp.invalid");

/**
 * Beyond the spec (docs/api-contract.md, "Changing the phone or the e-mail"): the code sent to the
 * new phone, checked under the user's budget of SMS codes in this session and burnt by any attempt;
 * the otp service, whose code it is, has identity make the phone the user's, and identity tells the
 * old one. The user's recovery links end; where the phone was a factor of the user's logins (the
 * SMS code), the user's other sessions end too, as after any change of a factor, and this one goes on.
 */
export const phoneConfirm = defineEndpoint({
  operation: "phone/confirm",
  summary: "Confirm the new phone with the code sent to it",
  body,
  responses,
  examples: { request: { code: "482913" }, answers: [{}] },
  steps: [currentUser, wrongCode],
  errors: ["auth.contact.unavailable"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  const user = await currentUser(context, context.session.userId);
  await assertOtpInSession(context, user.id, context.body.code, wrongCode, OtpPurpose.PHONE_CHANGE);
  await context.backends.recovery.revokeRecoveryLinks({ companyId: context.company.id, userId: user.id });
  if (owns(user, smsCode))
    await context.backends.session.endOwnSessions({ sessionToken: context.token, others: true });
  return {};
}
