import type { FlowContext } from "../endpoint/context.js";

/**
 * The user a login ID from the request body names, and the login ID normalised; spends one request
 * of the normalised login ID's rate limit, so that `+1 555 010 0000` and `5550100000`, or two cases
 * of one e-mail, share one count.
 */
export async function lookUpAndCountLoginId(context: FlowContext, loginId: string) {
  const found = await context.backends.identity.findUser({ companyId: context.company.id, loginId });
  await context.countLoginId(found.normalizedLoginId);
  return found;
}
