import type { CheckSubject } from "@auth/proto/session";

/**
 * Whose budget a guess at a login ID's secret spends (docs/security.md, "Guesses per hour at one
 * user"): the user's, shared by every login ID of the user; for a login ID that names no user, the
 * normalised login ID's, answered alike.
 */
export function checkSubjectOf(user: { id: string } | undefined, normalizedLoginId: string): CheckSubject {
  return user ? { userId: user.id } : { loginId: normalizedLoginId };
}
