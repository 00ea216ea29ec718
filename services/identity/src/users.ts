import { isDeepStrictEqual } from "node:util";
import { AuthError } from "@auth/errors";
import { normalizeEmail, normalizeLoginName, normalizePhone } from "@auth/login-ids";
import { type CompanyPolicy, type LoginIdKind, type User, UserStatus } from "@auth/proto/identity";
import { authenticatorsOf } from "./authenticators.js";
import { normalizeControlAnswer } from "./control-answers.js";
import { contextWords, matchesCompanyRegex, type PasswordRules } from "./password-policy.js";
import type { PasswordHasher, StoredPassword } from "./passwords.js";
import type { CreateUserInput, UpdateUserInput } from "./requests.js";
import type { CompanyRow, UserRow, UserStatusName } from "./schema.js";
import type { NewUser, StoredUser } from "./store/identity-store.js";

/**
 * The rules of a user: what every user has, whoever creates or changes it (docs/api-contract.md).
 * A user needs a password or a phone to receive one-time passwords; a stored phone is E.164 in the
 * company's region; login names and e-mails are stored normalised; a control question has its
 * answer, stored as a hash of the normalised answer.
 */

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

interface ControlAnswerFields {
  controlQuestion?: string | undefined;
  controlAnswer?: string | undefined;
}

/** What the request schemas check of control questions and answers, with the message of each. */
export const controlAnswerRules = {
  answer: {
    check: (answer: string) => normalizeControlAnswer(answer) !== "",
    message: "must not be empty",
  },
  ofNewUser: {
    check: (user: ControlAnswerFields) =>
      (user.controlQuestion === undefined) === (user.controlAnswer === undefined),
    message: "a control question needs its answer, and an answer its question",
  },
  /** An empty question removes the question and its answer. */
  ofChange: {
    check: (change: ControlAnswerFields) =>
      !change.controlQuestion ||
      (change.controlAnswer !== undefined && normalizeControlAnswer(change.controlAnswer) !== ""),
    message: "a control question needs its answer",
  },
};

/** The phone as stored, E.164; a number that is not one is a bad request. */
export function storedPhone(phone: string, policy: CompanyPolicy): string {
  const normalized = normalizePhone(phone, policy.defaultPhoneRegion);
  if (!normalized) {
    throw new AuthError("request.validation.failed", { detail: "phone: must be a valid phone number" });
  }
  return normalized;
}

/**
 * A user to create: CreateUser's, or an imported one (ImportUsers) with its external id and maybe
 * the hash its password had elsewhere, a scheme the request schema has checked.
 */
export type UserInput = CreateUserInput & { externalId?: string; passwordHash?: string };

/**
 * A user of the company's policy, as the store keeps it. An imported hash is of the password as
 * the user typed it elsewhere (`passwordNfkc` false), replaced at the first login (docs/decisions.md,
 * "Imported password hashes").
 */
export async function newUser(
  input: UserInput,
  policy: CompanyPolicy,
  hasher: PasswordHasher,
): Promise<NewUser> {
  const phone = input.phone === undefined ? undefined : storedPhone(input.phone, policy);
  if (input.password === undefined && input.passwordHash === undefined && phone === undefined) {
    throw new AuthError("request.validation.failed", {
      detail: "a user needs a password or a phone to receive one-time passwords",
    });
  }
  return {
    companyId: input.companyId,
    role: input.role,
    status: statusName(input.status),
    profileMnemocode: input.profileMnemocode,
    loginName: input.loginName === undefined ? null : normalizeLoginName(input.loginName),
    phone: phone ?? null,
    email: input.email === undefined ? null : normalizeEmail(input.email),
    passwordHash:
      input.password === undefined ? (input.passwordHash ?? null) : await hasher.hashPassword(input.password),
    passwordNfkc: input.password !== undefined,
    secondFactorRequired: input.secondFactorRequired,
    passwordChangeRequired: input.passwordChangeRequired,
    controlQuestion: input.controlQuestion ?? null,
    controlAnswerHash:
      input.controlAnswer === undefined
        ? null
        : await hasher.hash(normalizeControlAnswer(input.controlAnswer)),
    externalId: input.externalId ?? null,
  };
}

/** The changes to a stored user, as the store keeps them; an empty string removes an optional field. */
export async function userChanges(
  row: UserRow,
  input: UpdateUserInput,
  policy: CompanyPolicy,
  hasher: PasswordHasher,
): Promise<Partial<NewUser>> {
  const changes: Partial<NewUser> = {
    role: input.role,
    status: input.status === undefined ? undefined : statusName(input.status),
    profileMnemocode: input.profileMnemocode,
    secondFactorRequired: input.secondFactorRequired,
    passwordChangeRequired: input.passwordChangeRequired,
  };
  if (input.loginName !== undefined)
    changes.loginName = input.loginName ? normalizeLoginName(input.loginName) : null;
  if (input.email !== undefined) changes.email = input.email ? normalizeEmail(input.email) : null;
  if (input.phone !== undefined) changes.phone = input.phone ? storedPhone(input.phone, policy) : null;
  if (input.password !== undefined) {
    changes.passwordHash = input.password ? await hasher.hashPassword(input.password) : null;
    changes.passwordNfkc = Boolean(input.password);
    // No user's change wrote it: a change resumed after this writes its own (SetPassword).
    changes.passwordClaimId = null;
  }
  if (input.controlQuestion !== undefined) {
    changes.controlQuestion = input.controlQuestion || null;
    changes.controlAnswerHash = input.controlQuestion
      ? await hasher.hash(normalizeControlAnswer(input.controlAnswer ?? ""))
      : null;
  }
  const hasPassword = (changes.passwordHash === undefined ? row.passwordHash : changes.passwordHash) !== null;
  const hasPhone = (changes.phone === undefined ? row.phone : changes.phone) !== null;
  if (!hasPassword && !hasPhone) {
    throw new AuthError("request.validation.failed", { detail: "a user needs a password or a phone" });
  }
  return changes;
}

/**
 * Whether changes to a user (userChanges) change how the user authenticates: the password, the
 * phone the SMS second factor goes to, or the user's authenticators. Then the user's sessions end
 * (docs/security.md, "What ends a session").
 */
export function authenticationChanges(
  row: StoredUser,
  changes: Partial<NewUser>,
  policy: CompanyPolicy,
): boolean {
  const after = {
    ...row,
    role: changes.role ?? row.role,
    secondFactorRequired: changes.secondFactorRequired ?? row.secondFactorRequired,
    phone: changes.phone === undefined ? row.phone : changes.phone,
  };
  return (
    changes.passwordHash !== undefined ||
    (changes.phone !== undefined && changes.phone !== row.phone) ||
    !isDeepStrictEqual(authenticatorsOf(row, policy), authenticatorsOf(after, policy))
  );
}

export function toUser(row: StoredUser, policy: CompanyPolicy): User {
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
    passwordChangeRequired: row.passwordChangeRequired,
    controlQuestion: row.controlQuestion ?? undefined,
    authenticators: authenticatorsOf(row, policy),
    externalId: row.externalId ?? undefined,
  };
}

/**
 * How the user is named to an authenticator (the app's label, a passkey's user name): the user's
 * first login ID.
 */
export function labelOf(row: UserRow): string {
  return row.email ?? row.loginName ?? row.phone ?? row.profileMnemocode;
}

/** The user's password hash and its form, or undefined when the user has no password. */
export function storedPassword(row: UserRow): StoredPassword | undefined {
  return row.passwordHash === null
    ? undefined
    : { passwordHash: row.passwordHash, passwordNfkc: row.passwordNfkc };
}

/**
 * The rules of a password this user sets (docs/security.md, "Passwords"): the least length the
 * user's authenticators give (the length every process tells the user), and the words of the
 * user's context: the company's name and code, the login name, the e-mail's local part, the
 * phone's digits (the whole number and its last seven, the local number in most numbering plans).
 */
export function passwordRulesOf(row: StoredUser, company: CompanyRow): PasswordRules {
  const { policy } = company;
  const phoneDigits = row.phone?.replace(/\D/g, "");
  const values = [
    company.name,
    company.code,
    row.loginName,
    row.email?.split("@")[0],
    phoneDigits,
    phoneDigits?.slice(-7),
  ];
  return {
    policy,
    minLength: authenticatorsOf(row, policy).minPasswordLength,
    contextWords: contextWords(values.filter((value): value is string => Boolean(value))),
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
