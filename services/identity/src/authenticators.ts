import { type Authenticators, type CompanyPolicy, SecondFactorKind } from "@auth/proto/identity";
import { minPasswordLengthOf } from "@auth/runtime";
import { relyingPartyOf } from "./passkeys/relying-party.js";
import type { StoredUser } from "./store/identity-store.js";

/** What a user's authenticators follow from: the user's own flag and role, phone, app, passkeys and backup codes. */
export type AuthenticatorFacts = Pick<
  StoredUser,
  "secondFactorRequired" | "role" | "phone" | "totpSecret" | "hasPasskey" | "hasBackupCodes"
>;

/**
 * The user's authenticators and what follows from them, computed here only (docs/decisions.md,
 * "Second factors"): the second factors in the order a login offers them (a passkey where the
 * company has a relying party, the authenticator app, SMS to the user's phone for a user with
 * neither, which stand in for it; then backup codes while some are left), whether a login needs one
 * (the user's flag, the role's, or a passkey or an app: enrolling one is asking for it), whether a
 * passkey may replace the password, and the least length of a password the user sets.
 */
export function authenticatorsOf(user: AuthenticatorFacts, policy: CompanyPolicy): Authenticators {
  const relyingParty = relyingPartyOf(policy);
  const hasPasskey = user.hasPasskey && relyingParty !== undefined;
  const hasApp = user.totpSecret !== null;
  const primary = [
    ...(hasPasskey ? [SecondFactorKind.PASSKEY] : []),
    ...(hasApp ? [SecondFactorKind.AUTHENTICATOR_APP] : []),
    ...(!hasPasskey && !hasApp && user.phone !== null ? [SecondFactorKind.SMS] : []),
  ];
  const secondFactorRequired =
    user.secondFactorRequired || policy.twoFactorRoles.includes(user.role) || hasApp || hasPasskey;
  return {
    secondFactors: user.hasBackupCodes ? [...primary, SecondFactorKind.BACKUP_CODES] : primary,
    secondFactorRequired,
    minPasswordLength: minPasswordLengthOf(policy, secondFactorRequired),
    passkeyReplacesPassword: hasPasskey && relyingParty.allowPasswordless,
  };
}
