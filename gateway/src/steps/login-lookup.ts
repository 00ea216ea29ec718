import type { FlowContext } from "../endpoint/context.js";
import { step } from "../endpoint/step.js";

/**
 * @auth/login-ids with libphonenumber-js (some 110 modules), loaded at the first login and kept: a
 * start of the gateway does not need it (docs/performance.md, "Modules loaded at start").
 */
let loaded: Promise<typeof import("@auth/login-ids")> | undefined;
const loginIds = () => (loaded ??= import("@auth/login-ids"));

/**
 * Spends one request of a login ID's rate limit, counted by the login ID as identity compares it,
 * so that `+1 555 010 0000` and `5550100000`, or two cases of one e-mail, share one count.
 */
export const countLoginId = step(
  ["request.ratelimit.exceeded"],
  async (context: FlowContext, loginId: string): Promise<void> => {
    const { normalizeLoginId } = await loginIds();
    await context.countLoginId(normalizeLoginId(loginId, context.company.policy.defaultPhoneRegion).value);
  },
);

/** The user a login ID from the request body names, and the login ID normalised, once counted. */
export const lookUpAndCountLoginId = step(
  countLoginId.errors,
  async (context: FlowContext, loginId: string) => {
    await countLoginId(context, loginId);
    return context.backends.identity.findUser({ companyId: context.company.id, loginId });
  },
);
