import { weakPasswordError, weakPasswordStatus } from "@auth/errors";
import { PasswordProblem, type User } from "@auth/proto/identity";
import type { SessionFlowContext } from "../endpoint/context.js";
import type { ErrorAnswer } from "../endpoint/define.js";
import { describePasswordProblem } from "./password-rules.js";

/** A new password the rules refuse: 422, naming the rule broken (docs/api-contract.md, "Passwords"). */
export const weakPassword: ErrorAnswer = { code: "request.validation.failed", status: weakPasswordStatus };

/**
 * Whether the request resumes a change it claimed the session for before (its Idempotency-Key and
 * body, the retry key): then the checks that came before the claim passed, with the same body.
 */
export function resumesChange(context: SessionFlowContext): boolean {
  return context.retryKey !== undefined && context.session.changeRetryKey === context.retryKey;
}

/**
 * Checks the new password, claims the session and writes the password, unless a retry of the same
 * request finds it written already. The claim makes the session its user's only one, so that no
 * other session, in any state, can set yet another password; returns how many other sessions it
 * ended. A weak password is refused before anything ends, so that the user may try another.
 */
export async function changePassword(
  context: SessionFlowContext<{ new_password: string }>,
  user: User,
): Promise<{ ended: number }> {
  const refuse = (problem: PasswordProblem) =>
    weakPasswordError(String(problem), {
      password_regex_description: describePasswordProblem(problem, context.company.policy, user),
    });
  // Identity writes only for this session, claimed for the change (docs/security.md, "Trust between
  // the services"): it asks the session service whose change the token was claimed for.
  const setPassword = async (validateOnly: boolean) =>
    (
      await context.backends.identity.setPassword({
        companyId: context.company.id,
        userId: user.id,
        newPassword: context.body.new_password,
        validateOnly,
        sessionToken: context.token,
      })
    ).problem;
  const problem = await setPassword(true);
  // This request's own password, written before its answer was lost.
  const writtenBefore = resumesChange(context) && problem === PasswordProblem.SAME_AS_CURRENT;
  if (problem !== undefined && !writtenBefore) throw refuse(problem);
  const { ended } = await context.backends.session.claimCredentialChange({
    sessionToken: context.token,
    retryKey: context.retryKey,
  });
  if (writtenBefore) return { ended };
  const refused = await setPassword(false);
  if (refused !== undefined) throw refuse(refused);
  return { ended };
}
