import { AuthError } from "@auth/errors";
import { checkSubjectOf, normalizeLoginId } from "@auth/login-ids";
import { LoginIdKind } from "@auth/proto/identity";
import type { CheckSubject } from "@auth/proto/session";
import type { TtlCache } from "@auth/runtime";
import { withDefaults } from "../companies.js";
import type { CompanyRow } from "../schema.js";
import type { IdentityStore, LoginIdColumn, StoredUser } from "../store/identity-store.js";
import { mayUseLoginId } from "../users.js";

const columnOfKind = {
  [LoginIdKind.PHONE]: "phone",
  [LoginIdKind.EMAIL]: "email",
  [LoginIdKind.LOGIN_NAME]: "loginName",
} as const satisfies Record<LoginIdKind.PHONE | LoginIdKind.EMAIL | LoginIdKind.LOGIN_NAME, LoginIdColumn>;

export type Lookups = ReturnType<typeof lookups>;

/** The user a login ID names, if any, and whose budget of guesses it spends. */
export interface NamedUser {
  normalizedLoginId: string;
  row: StoredUser | undefined;
  subject: CheckSubject;
}

export const isSameSubject = (one: CheckSubject, other: CheckSubject) =>
  one.userId === other.userId && one.loginId === other.loginId;

/**
 * The reads handlers of both audiences share: a company or user that must exist, a login ID's user,
 * and the budget a login ID spends, as it was a moment ago (`subjects`).
 */
export function lookups(
  store: IdentityStore,
  companies: TtlCache<CompanyRow>,
  subjects: TtlCache<CheckSubject>,
) {
  async function userById(companyId: string, userId: string) {
    const row = await store.findUser(companyId, userId);
    if (!row) throw new AuthError("resource.notfound", { detail: "no such user" });
    return row;
  }

  async function companyById(companyId: string) {
    return companies.getOrLoad(companyId, async () => {
      const stored = await store.findCompanyById(companyId);
      if (!stored) throw new AuthError("resource.notfound", { detail: "no such company" });
      return withDefaults(stored);
    });
  }

  /**
   * The company and user a message is for: none of a suspended company, and no user who is not
   * active, whatever the caller checked (docs/decisions.md, "Suspension").
   */
  async function recipient(companyId: string, userId: string) {
    const company = await companyById(companyId);
    if (company.suspended) throw new AuthError("auth.restricted", { detail: "company suspended" });
    const user = await userById(companyId, userId);
    if (user.status !== "active") throw new AuthError(`auth.user.${user.status}`);
    return { company, user };
  }

  const loginIdOf = (company: CompanyRow, rawLoginId: string) => {
    const loginId = normalizeLoginId(rawLoginId, company.policy.defaultPhoneRegion);
    return { ...loginId, key: `${company.id}\n${loginId.kind}\n${loginId.value}` };
  };

  /** The user a login ID names, if the user's role may log in with that kind of login ID. */
  async function lookUp(company: CompanyRow, rawLoginId: string): Promise<NamedUser> {
    const loginId = loginIdOf(company, rawLoginId);
    const row = await store.findUserByLoginId(company.id, columnOfKind[loginId.kind], loginId.value);
    const user = row && mayUseLoginId(company.policy, row.role, loginId.kind) ? row : undefined;
    const subject = checkSubjectOf(user, loginId.value);
    subjects.set(loginId.key, subject);
    return { normalizedLoginId: loginId.value, row: user, subject };
  }

  /**
   * Whose budget a guess at the login ID's password spends, as the login ID named it a moment ago
   * (docs/security.md, "Bursts"): read once however many guesses ask at the same moment, and then
   * kept `LOGIN_ID_CACHE_SECONDS`, so that the guesses the budget refuses read no row. `read` gives
   * the user as the login ID names it now, for the comparison: read by this very call when it was
   * the one to load the subject, read again otherwise.
   */
  async function subjectNamed(company: CompanyRow, rawLoginId: string) {
    const { key, value } = loginIdOf(company, rawLoginId);
    let loaded: NamedUser | undefined;
    const subject = await subjects.getOrLoad(key, async () => {
      loaded = await lookUp(company, rawLoginId);
      return loaded.subject;
    });
    return { normalizedLoginId: value, subject, read: async () => loaded ?? lookUp(company, rawLoginId) };
  }

  return { userById, companyById, recipient, lookUp, subjectNamed };
}
