import { AuthError } from "@auth/errors";
import type { RequiredDisclaimer } from "@auth/proto/session";
import type { z } from "zod";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";
import type { disclaimer } from "../endpoint/responses.js";
import { step } from "../endpoint/step.js";

/** The disclaimer object of spec 2.3. */
export type DisclaimerObject = z.output<typeof disclaimer>;

const toObject = ({ code, title, description, link }: RequiredDisclaimer): DisclaimerObject => ({
  code,
  title,
  description,
  link,
});

function disclaimerInvalid(required: DisclaimerObject[]): AuthError {
  return new AuthError("auth.disclaimer.invalid", { fields: { disclaimers_required: required } });
}

/**
 * The company's disclaimers the user still has to accept: none, without asking, for a company the
 * last list names without any (docs/decisions.md, "A company without disclaimers"). While the
 * disclaimer service cannot be reached, none for a company it last listed without disclaimers;
 * service.unavailable for any other (docs/decisions.md, "Disclaimers while their service is down").
 */
export async function requiredDisclaimers(context: FlowContext, userId: string): Promise<DisclaimerObject[]> {
  if (context.companiesWithDisclaimers.hasNone(context.company.id)) return [];
  try {
    const { disclaimers } = await context.backends.disclaimer.listRequiredDisclaimers({
      companyId: context.company.id,
      userId,
    });
    return disclaimers.map(toObject);
  } catch (error) {
    const unreachable = error instanceof AuthError && error.code === "service.unavailable";
    if (unreachable && context.companiesWithDisclaimers.knownToHaveNone(context.company.id)) return [];
    throw error;
  }
}

/**
 * The disclaimers the session's user owed when the session started: the login step read them and
 * the session carries them (docs/decisions.md, "Login").
 */
export function sessionDisclaimers(context: SessionFlowContext): DisclaimerObject[] {
  return context.session.disclaimersRequired.map(toObject);
}

/** spec 4.2 rule 3: every required code must be in accept_disclaimers. */
export const assertAllAccepted = step(
  ["auth.disclaimer.invalid"],
  (required: DisclaimerObject[], accepted: readonly string[] = []): void => {
    const given = new Set(accepted);
    if (required.some((disclaimer) => !given.has(disclaimer.code))) throw disclaimerInvalid(required);
  },
);

/**
 * Stores the acceptances durably (who, which version, when, from where); a disclaimer published
 * since the check is auth.disclaimer.invalid.
 */
export const recordAcceptance = step(
  ["auth.disclaimer.invalid"],
  async function recordAcceptance(
    context: FlowContext,
    userId: string,
    required: DisclaimerObject[],
    accepted: readonly string[] = [],
  ): Promise<void> {
    if (required.length === 0) return;
    const { missing } = await context.backends.disclaimer.acceptDisclaimers({
      companyId: context.company.id,
      userId,
      codes: [...accepted],
      clientAddress: context.clientAddress,
    });
    // A disclaimer published between the check and the acceptance.
    if (missing.length > 0) throw disclaimerInvalid(await requiredDisclaimers(context, userId));
  },
);
