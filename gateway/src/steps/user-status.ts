import { AuthError, type ErrorCode } from "@auth/errors";
import { type User, UserStatus } from "@auth/proto/identity";
import type { FlowContext } from "../endpoint/context.js";
import { codesOf, step } from "../endpoint/step.js";

/** The user's status, which most flows check (spec 4.1 rules 2 to 4). */
export const userStatusErrors: readonly ErrorCode[] = [
  "auth.user.restricted",
  "auth.user.closed",
  "auth.user.denied",
];

/** spec 4.1 rules 2 to 4: restricted, closed and denied users get no further. */
export const assertUserMayLogIn = step(userStatusErrors, (user: User): void => {
  switch (user.status) {
    case UserStatus.ACTIVE:
      return;
    case UserStatus.RESTRICTED:
      throw new AuthError("auth.user.restricted");
    case UserStatus.CLOSED:
      throw new AuthError("auth.user.closed");
    case UserStatus.DENIED:
      throw new AuthError("auth.user.denied");
    case UserStatus.UNSPECIFIED:
    case UserStatus.UNRECOGNIZED:
      throw new AuthError("internal.error", { detail: `user ${user.id} has no status` });
  }
});

/** The session's user as it is now, whatever its status. */
export const sessionUser = step(
  ["auth.token.invalid"],
  async (context: FlowContext, userId: string): Promise<User> => {
    const { user } = await context.backends.identity.getUser({ companyId: context.company.id, userId });
    if (!user) throw new AuthError("auth.token.invalid", { detail: "the session's user is gone" });
    return user;
  },
);

/** The session's user as it is now (an administrator may have closed it since the session began). */
export const currentUser = step(
  codesOf(sessionUser, assertUserMayLogIn),
  async (context: FlowContext, userId: string): Promise<User> => {
    const user = await sessionUser(context, userId);
    assertUserMayLogIn(user);
    return user;
  },
);
