import { weakPasswordError } from "@auth/errors";
import { z } from "zod";
import { securityEvent } from "../security-events.js";
import { forgetFailedChecks } from "../steps/secret-checks.js";
import { moveSession } from "../steps/session-moves.js";
import { currentUser } from "../steps/user-status.js";
import { sessionEndpoint } from "./endpoint.js";
import { assertTransition } from "./transitions.js";

const body = z.object({ new_password: z.string("must be a string").max(4_096) });

/**
 * spec 4.5: a new password, in state setpassword (then authorized, with a new token) or
 * recovery-setpassword (then no token: every session of the user ends, the recovery one included).
 * Either way nothing of the old access is left (docs/security.md, "A password change"): every other
 * session of the user ends, in any state, and so does any that started on the old password while
 * the change was under way; the user's recovery links end too. A weak password is refused before
 * anything ends, so that the user may try another.
 */
export const setpassword = sessionEndpoint("setpassword", body, async (context) => {
  const user = await currentUser(context, context.session.userId);
  const companyId = context.company.id;
  const setPassword = async (validateOnly: boolean) => {
    const { problem } = await context.backends.identity.setPassword({
      companyId,
      userId: user.id,
      newPassword: context.body.new_password,
      validateOnly,
    });
    if (problem) throw weakPasswordError(problem);
  };
  const endRecoveryLinks = () =>
    context.backends.recovery.revokeRecoveryLinks({ companyId, userId: user.id });

  // recovery-setpassword ends without a session: the table must allow that (other states may not).
  if (context.state !== "setpassword") assertTransition(context.operation, context.state, null);
  await setPassword(true);
  if (context.state === "setpassword") {
    // The session that changes the password becomes its user's only one before the write, and
    // takes a new generation after it, which ends any that logged in with the old one meanwhile.
    await context.backends.session.claimCredentialChange({ sessionToken: context.token });
    securityEvent(context, "session.revoked", { userId: user.id, allOfUser: true });
    await setPassword(false);
    securityEvent(context, "password.changed", { userId: user.id });
    const moved = await moveSession(context, "authorized", {
      profileMnemocode: user.profileMnemocode,
      passwordChangeRequired: false,
      renewCredentialGeneration: true,
    });
    await endRecoveryLinks();
    return {
      session_token: moved.token,
      session_state: "authorized",
      profile_mnemocode: user.profileMnemocode,
    };
  }
  // Every session of the user ends, the recovery one included, before the password changes: should
  // either step fail, the recovery is left unfinished (start again), never finished halfway with a
  // new password and a recovery session still able to set another. After the write, again: a login
  // that checked the old password meanwhile started with a generation that is no longer the user's.
  const endSessions = () => context.backends.session.revokeUserSessions({ companyId, userId: user.id });
  await endSessions();
  securityEvent(context, "session.revoked", { userId: user.id, allOfUser: true });
  await setPassword(false);
  securityEvent(context, "password.changed", { userId: user.id });
  await endSessions();
  await endRecoveryLinks();
  securityEvent(context, "recovery.finished", { userId: user.id });
  // Whoever recovered access may log in at once, whatever failures the user had. The recovery is
  // done by now: should this fail, the answer is still success, and the failures expire with their window.
  await forgetFailedChecks(context, { userId: user.id }).catch((error: unknown) =>
    context.log.warn({ err: error }, "recovery finished, but the user's failures were not forgotten"),
  );
  return {};
});
