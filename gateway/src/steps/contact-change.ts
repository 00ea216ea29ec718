import type { ContactKind } from "@auth/proto/identity";
import type { SessionFlowContext } from "../endpoint/context.js";
import { codesOf, step } from "../endpoint/step.js";
import { userChangingFactors } from "./factor-change.js";

/**
 * Starts a change of the signed-in user's phone or e-mail (docs/api-contract.md, "Changing the
 * phone or the e-mail"): the session's factors fresh (steps/factor-change.ts), then identity keeps
 * the new address pending for the session's user, refusing another user's login ID
 * (auth.contact.unavailable) and the user's own (request.validation.failed). Returns the user and
 * the address as identity keeps it.
 */
export const beginContactChange = step(
  [...codesOf(userChangingFactors), "auth.contact.unavailable", "request.validation.failed"],
  async (context: SessionFlowContext, kind: ContactKind, address: string) => {
    const user = await userChangingFactors(context);
    const begun = await context.backends.identity.beginContactChange({
      companyId: context.company.id,
      sessionToken: context.token,
      kind,
      address,
    });
    return { user, address: begun.address };
  },
);
