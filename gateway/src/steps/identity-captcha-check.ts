import type { FlowContext } from "../endpoint/context.js";

/** Asks identity, which holds the company's captcha secret, whether it accepts the client's captcha response. */
export async function identityAcceptsCaptcha(context: FlowContext, response: string): Promise<boolean> {
  const { valid } = await context.backends.identity.verifyCaptcha({
    companyId: context.company.id,
    captchaResponse: response,
    clientAddress: context.clientAddress,
  });
  return valid;
}
