import { type Authenticators, type CompanyPolicy, SecondFactorKind } from "@auth/proto/identity";
import { minPasswordLengthOf } from "@auth/runtime";
import type { StoredUser } from "./store/identity-store.js";

/** What a user's authenticators follow from: the user's own flag and role, phone, app and backup codes. */
export type AuthenticatorFacts = Pick<
  StoredUser,
  "secondFactorRequired" | "role" | "phone" | "totpSecret" | "hasBackupCodes"
>;

/**
 * The user's authenticators and what follows from them, computed here only (docs/decisions.md,
 * "Second factors"): the second factors in the order a login offers them (the authenticator app,
 * which stands in for SMS, else SMS to the user's phone; then backup codes while some are left),
 * whether a login needs one (the user's flag, the role's, or an app: enrolling one is asking for
 * it), and the least length of a password the user sets.
 */
export function authenticatorsOf(user: AuthenticatorFacts, policy: CompanyPolicy): Authenticators {
  const hasApp = user.totpSecret !== null;
  const primary = hasApp
    ? [SecondFactorKind.AUTHENTICATOR_APP]
    : user.phone !== null
      ? [SecondFactorKind.SMS]
      : [];
  const secondFactorRequired =
    user.secondFactorRequired || policy.twoFactorRoles.includes(user.role) || hasApp;
  return {
    secondFactors: user.hasBackupCodes ? [...primary, SecondFactorKind.BACKUP_CODES] : primary,
    secondFactorRequired,
    minPasswordLength: minPasswordLengthOf(policy, secondFactorRequired),
  };
}
