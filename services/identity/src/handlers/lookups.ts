import { AuthError } from "@auth/errors";
import { normalizeLoginId } from "@auth/login-ids";
import { LoginIdKind } from "@auth/proto/identity";
import type { TtlCache } from "@auth/runtime";
import { withDefaults } from "../companies.js";
import type { CompanyRow } from "../schema.js";
import type { IdentityStore, LoginIdColumn } from "../store/identity-store.js";
import { mayUseLoginId } from "../users.js";

const columnOfKind = {
  [LoginIdKind.PHONE]: "phone",
  [LoginIdKind.EMAIL]: "email",
  [LoginIdKind.LOGIN_NAME]: "loginName",
} as const satisfies Record<LoginIdKind.PHONE | LoginIdKind.EMAIL | LoginIdKind.LOGIN_NAME, LoginIdColumn>;

export type Lookups = ReturnType<typeof lookups>;

/** The reads handlers of both audiences share: a company or user that must exist, and a login ID's user. */
export function lookups(store: IdentityStore, companies: TtlCache<CompanyRow>) {
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

  /** The user a login ID names, if the user's role may log in with that kind of login ID. */
  async function lookUp(company: CompanyRow, rawLoginId: string) {
    const loginId = normalizeLoginId(rawLoginId, company.policy.defaultPhoneRegion);
    const row = await store.findUserByLoginId(company.id, columnOfKind[loginId.kind], loginId.value);
    const user = row && mayUseLoginId(company.policy, row.role, loginId.kind) ? row : undefined;
    return { normalizedLoginId: loginId.value, row: user };
  }

  return { userById, companyById, recipient, lookUp };
}
