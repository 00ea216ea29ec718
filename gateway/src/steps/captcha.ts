import type { FlowContext } from "../flows/endpoint.js";

/** Whether identity, which holds the company's captcha secret, accepts the client's response. */
export async function captchaPassed(context: FlowContext, response: string): Promise<boolean> {
  const { valid } = await context.backends.identity.verifyCaptcha({
    companyId: context.company.id,
    captchaResponse: response,
    clientAddress: context.clientAddress,
  });
  return valid;
}
