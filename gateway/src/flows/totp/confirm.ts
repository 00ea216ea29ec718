import { AuthError } from "@auth/errors";
import { z } from "zod";
import type { SessionFlowContext } from "../../endpoint/context.js";
import { defineEndpoint } from "../../endpoint/define.js";
import { fields } from "../../endpoint/fields.js";
import { type SuccessFields, success } from "../../endpoint/responses.js";
import { securityEvent } from "../../security-events.js";
import { assertUserMayLogIn, sessionUser } from "../../steps/user-status.js";
import { assertFreshLogin } from "./fresh-login.js";

const body = z.object({
  code: fields.secret.describe("A code the authenticator app shows for the new secret"),
});

const responses = success({
  sessions_ended: z.number().int().describe("How many of the user's other sessions ended"),
});

/**
 * Beyond the spec (docs/api-contract.md, "Authenticator app"): the signed-in user proves a code of
 * the pending secret, which becomes the login's second factor; the user's other sessions end, as
 * after any change of an authenticator (ASVS 5.0 7.4.3), and this one goes on.
 */
export const totpConfirm = defineEndpoint({
  operation: "totp/confirm",
  summary: "Confirm the authenticator app with one of its codes",
  body,
  responses,
  examples: { request: { code: "492039" }, answers: [{ sessions_ended: 1 }] },
  errors: ["auth.otp.invalid", "auth.reauthentication.required"],
  rateLimit: "address and login ID",
  whileSuspended: "auth.restricted",
  handle,
});

async function handle(
  context: SessionFlowContext<z.infer<typeof body>>,
): Promise<SuccessFields<typeof responses>> {
  assertFreshLogin(context);
  const user = await sessionUser(context, context.session.userId);
  assertUserMayLogIn(user);
  const { enrolled } = await context.backends.identity.confirmTotpEnrolment({
    companyId: context.company.id,
    userId: user.id,
    code: context.body.code,
  });
  if (!enrolled) throw new AuthError("auth.otp.invalid", { detail: "not a code of the pending secret" });
  securityEvent(context, "totp.enrolled", { userId: user.id });
  const { ended } = await context.backends.session.endOwnSessions({
    sessionToken: context.token,
    others: true,
  });
  return { sessions_ended: ended };
}
