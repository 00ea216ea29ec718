import { AuthError } from "@auth/errors";
import type { User, VerifyPasswordResponse } from "@auth/proto/identity";
import type { SessionFlowContext } from "../endpoint/context.js";
import { codesOf, step } from "../endpoint/step.js";
import { afterCheck } from "./secret-checks.js";

/**
 * The password of the session's user, checked by identity under the user's password budget, spent
 * before the compare in the session's turn (docs/security.md, "Guesses per hour at one user"): a
 * refused check is thrown as the login steps tell it, a wrong password is auth.password.invalid;
 * after a right one, `rest` runs with the user as identity read it and the right check, for the
 * session move that rests on it to report (afterCheck).
 */
export const checkSessionPassword = step(
  codesOf(afterCheck, ["auth.password.invalid"]),
  async <R>(
    context: SessionFlowContext,
    request: { userId: string; password: string; captchaResponse?: string },
    rest: (user: User, rightCheckId: string, verdict: VerifyPasswordResponse) => Promise<R>,
  ): Promise<R> => {
    const verdict = await context.backends.identity.verifyPassword({
      companyId: context.company.id,
      ...request,
      clientAddress: context.clientAddress,
      sessionToken: context.token,
    });
    const answer = await afterCheck(
      context,
      verdict.check,
      verdict.valid ? verdict.user : undefined,
      (user, rightCheckId) => rest(user, rightCheckId, verdict),
    );
    if (answer === undefined) {
      throw new AuthError("auth.password.invalid", {
        fields: { captcha_required: verdict.check?.captchaRequired },
      });
    }
    return answer;
  },
);
