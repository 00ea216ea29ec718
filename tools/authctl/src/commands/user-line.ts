import { type Authenticators, SecondFactorKind, type User, UserStatus } from "@auth/proto/identity";

export const statuses: Record<string, UserStatus> = {
  active: UserStatus.ACTIVE,
  restricted: UserStatus.RESTRICTED,
  closed: UserStatus.CLOSED,
  denied: UserStatus.DENIED,
};

const factorNames: Partial<Record<SecondFactorKind, string>> = {
  [SecondFactorKind.SMS]: "sms",
  [SecondFactorKind.AUTHENTICATOR_APP]: "app",
  [SecondFactorKind.BACKUP_CODES]: "backup-codes",
};

/** The user's second factors as identity computed them, whether one is required, and the least password length. */
function authenticatorsText(authenticators: Authenticators | undefined): string {
  if (!authenticators) return "";
  const factors = authenticators.secondFactors.map((kind) => factorNames[kind] ?? kind).join(",");
  const required = authenticators.secondFactorRequired ? " (required)" : "";
  return `2fa: ${factors || "none"}${required}\tmin password ${authenticators.minPasswordLength}`;
}

/** A user on one line: id, first login ID, role, status and authenticators, tab-separated. */
export function userLine(user: User): string {
  const status = Object.keys(statuses).find((name) => statuses[name] === user.status);
  return [
    user.id,
    user.loginName ?? user.email ?? user.phone ?? "",
    user.role,
    status,
    authenticatorsText(user.authenticators),
  ].join("\t");
}
