import { type Authenticators, SecondFactorKind, User, UserStatus } from "@auth/proto/identity";
import type { Records } from "../table.js";

export const statuses: Record<string, UserStatus> = {
  active: UserStatus.ACTIVE,
  restricted: UserStatus.RESTRICTED,
  closed: UserStatus.CLOSED,
  denied: UserStatus.DENIED,
};

const factorNames: Partial<Record<SecondFactorKind, string>> = {
  [SecondFactorKind.PASSKEY]: "passkey",
  [SecondFactorKind.SMS]: "sms",
  [SecondFactorKind.AUTHENTICATOR_APP]: "app",
  [SecondFactorKind.BACKUP_CODES]: "backup-codes",
};

/** The user's second factors as identity computed them, and whether one is required. */
function secondFactors(authenticators: Authenticators | undefined): string {
  if (!authenticators) return "";
  const factors = authenticators.secondFactors.map((kind) => factorNames[kind] ?? kind).join(",");
  return `${factors || "none"}${authenticators.secondFactorRequired ? " (required)" : ""}`;
}

/** A company's users: id, first login ID, role, status, second factors and the least password length. */
export const userRecords: Records<User> = {
  columns: [
    { header: "id", cell: (user) => user.id },
    { header: "login ID", cell: (user) => user.loginName ?? user.email ?? user.phone ?? "" },
    { header: "role", cell: (user) => user.role },
    {
      header: "status",
      cell: (user) => Object.keys(statuses).find((name) => statuses[name] === user.status) ?? "",
    },
    { header: "second factor", cell: (user) => secondFactors(user.authenticators) },
    { header: "min password", cell: (user) => String(user.authenticators?.minPasswordLength ?? "") },
    { header: "external id", cell: (user) => user.externalId ?? "" },
  ],
  none: "no users",
  toJSON: (user) => User.toJSON(user),
};
