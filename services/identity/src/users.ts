import { type CompanyPolicy, type LoginIdKind, type User, UserStatus } from "@auth/proto/identity";
import { matchesCompanyRegex } from "./password-policy.js";
import type { UserRow, UserStatusName } from "./schema.js";

const statusNames = {
  [UserStatus.ACTIVE]: "active",
  [UserStatus.RESTRICTED]: "restricted",
  [UserStatus.CLOSED]: "closed",
  [UserStatus.DENIED]: "denied",
} as const satisfies Partial<Record<UserStatus, UserStatusName>>;

const statusOfName: Record<UserStatusName, UserStatus> = {
  active: UserStatus.ACTIVE,
  restricted: UserStatus.RESTRICTED,
  closed: UserStatus.CLOSED,
  denied: UserStatus.DENIED,
};

/** The stored name of a status; an unspecified status is active. */
export function statusName(status: UserStatus): UserStatusName {
  return status in statusNames ? statusNames[status as keyof typeof statusNames] : "active";
}

export function toUser(row: UserRow, policy: CompanyPolicy): User {
  return {
    id: row.id,
    companyId: row.companyId,
    role: row.role,
    status: statusOfName[row.status],
    profileMnemocode: row.profileMnemocode,
    loginName: row.loginName ?? undefined,
    phone: row.phone ?? undefined,
    email: row.email ?? undefined,
    hasPassword: row.passwordHash !== null,
    secondFactorRequired: row.secondFactorRequired || policy.twoFactorRoles.includes(row.role),
    passwordChangeRequired: row.passwordChangeRequired,
    controlQuestion: row.controlQuestion ?? undefined,
  };
}

/** Whether the company lets users of this role log in with this kind of login ID. */
export function mayUseLoginId(policy: CompanyPolicy, role: string, kind: LoginIdKind): boolean {
  const allowed = policy.loginIdKindsByRole[role];
  return allowed === undefined || allowed.kinds.includes(kind);
}

/** A valid password must be changed when an administrator asked for it or the company's regex no longer accepts it. */
export function passwordChangeRequired(row: UserRow, policy: CompanyPolicy, password: string): boolean {
  if (row.passwordChangeRequired) return true;
  return !matchesCompanyRegex(password, policy);
}
