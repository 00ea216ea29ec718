import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import { FactorKind } from "@auth/proto/introspection";
import type { SessionFlowContext } from "../endpoint/context.js";
import { codesOf, step } from "../endpoint/step.js";
import { secondFactorRequired } from "../factors/second-factors.js";
import { currentUser } from "./user-status.js";

/**
 * How recent the authentication must be to change the user's factors (ASVS 5.0 7.5.1): a token stolen
 * later, or left on a shared device, cannot bind a factor of its holder's. Ten minutes: time to scan
 * a QR code right after signing in.
 */
export const freshAuthenticationSeconds = 600;

/**
 * Enrolling, replacing or removing a factor needs the factors the user has (docs/security.md,
 * "Changing a factor"): a session at level 2 whose latest factor was passed within
 * freshAuthenticationSeconds when the user must pass a second factor; else a factor of the
 * product's own (not only a provider's login) passed within them. Ages are the session service's,
 * by its own clock: its now is the session's start plus its age.
 */
export const assertMayChangeFactors = step(
  ["auth.reauthentication.required"],
  (context: SessionFlowContext, user: User): void => {
    const { session } = context;
    const now = (session.createdAt?.getTime() ?? 0) + session.ageSeconds * 1000;
    const fresh = (at: Date | undefined) =>
      at !== undefined && now - at.getTime() <= freshAuthenticationSeconds * 1000;
    const authentication = session.authentication;
    const allowed = secondFactorRequired(user)
      ? authentication?.level === 2 && fresh(authentication.authenticatedAt)
      : (authentication?.factors ?? []).some(
          (factor) => factor.kind !== FactorKind.FEDERATED && fresh(factor.authenticatedAt),
        );
    if (!allowed) {
      throw new AuthError("auth.reauthentication.required", {
        detail: `sign in again: changing a factor needs the user's factors, passed within ${freshAuthenticationSeconds / 60} minutes`,
      });
    }
  },
);

/** The session's user, who may log in and change factors now: where every change of a factor starts. */
export const userChangingFactors = step(
  codesOf(currentUser, assertMayChangeFactors),
  async (context: SessionFlowContext): Promise<User> => {
    const user = await currentUser(context, context.session.userId);
    assertMayChangeFactors(context, user);
    return user;
  },
);
