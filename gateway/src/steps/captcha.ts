import { AuthError } from "@auth/errors";
import type { FlowContext } from "../flows/endpoint.js";
import { captchaRequired } from "./login-guard.js";

/** spec 4.2 rule 2: once the failures reach the threshold, a valid captcha_response is required. */
export async function checkCaptcha(
  context: FlowContext,
  failures: number,
  response: string | undefined,
): Promise<void> {
  if (!captchaRequired(context, failures)) return;
  if (!response) throw new AuthError("auth.captcha.missing", { fields: { captcha_required: true } });
  if (!(await context.captcha.verify(context.company, response, context.clientAddress))) {
    throw new AuthError("auth.captcha.invalid", { fields: { captcha_required: true } });
  }
}
