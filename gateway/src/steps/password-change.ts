import { createHash, timingSafeEqual } from "node:crypto";
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
 * Checks the new password, claims the session and writes the password; identity writes it once per
 * claim, so that a retry of the same request finds it written. The claim makes the session its
 * user's only one, so that no other session, in any state, can set yet another password; returns
 * how many other sessions it ended. A weak password is refused before anything ends, so that the
 * user may try another. A `current_password` (checked right before, under the user's budget) is the
 * current one: a new password equal to it is refused as such, the two fields compared, not the
 * hash (docs/decisions.md, "Passwords").
 */
export async function changePassword(
  context: SessionFlowContext<{ new_password: string; current_password?: string }>,
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
  // A retry of a change this request claimed the session for passed these checks before, with this body.
  if (!resumesChange(context)) {
    const problem = (await setPassword(true)) ?? sameAsGiven(context.body);
    if (problem !== undefined) throw refuse(problem);
  }
  const { ended } = await context.backends.session.claimCredentialChange({
    sessionToken: context.token,
    retryKey: context.retryKey,
  });
  const refused = await setPassword(false);
  if (refused !== undefined) throw refuse(refused);
  return { ended };
}

/**
 * SAME_AS_CURRENT when the request's new password is its current one, as the hashes compare them
 * (NFKC). Both are the client's own, but a secret is compared in constant time everywhere
 * (infra/checks), so that no comparison needs an argument why it may not be.
 */
function sameAsGiven(body: { new_password: string; current_password?: string }): PasswordProblem | undefined {
  if (body.current_password === undefined) return undefined;
  const digest = (password: string) => createHash("sha256").update(password.normalize("NFKC")).digest();
  return timingSafeEqual(digest(body.current_password), digest(body.new_password))
    ? PasswordProblem.SAME_AS_CURRENT
    : undefined;
}
