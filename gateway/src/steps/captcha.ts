import { AuthError } from "@auth/errors";
import type { FlowContext } from "../flows/endpoint.js";
import { captchaRequired } from "./login-guard.js";

/** Whether identity, which holds the company's captcha secret, accepts the client's response. */
export async function captchaPassed(context: FlowContext, response: string): Promise<boolean> {
  const { valid } = await context.backends.identity.verifyCaptcha({
    companyId: context.company.id,
    captchaResponse: response,
    clientAddress: context.clientAddress,
  });
  return valid;
}

/** spec 4.2 rule 2: once the failures reach the threshold, a valid captcha_response is required. */
export async function checkCaptcha(
  context: FlowContext,
  failures: number,
  response: string | undefined,
): Promise<void> {
  if (!captchaRequired(context, failures)) return;
  if (!response) throw new AuthError("auth.captcha.missing", { fields: { captcha_required: true } });
  if (!(await captchaPassed(context, response))) {
    throw new AuthError("auth.captcha.invalid", { fields: { captcha_required: true } });
  }
}
