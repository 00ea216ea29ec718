import { type CompanyPolicy, PasswordProblem } from "@auth/proto/identity";
import { passwordLength } from "@auth/runtime";

/** docs/api-contract.md, "Passwords": 8 to 256 characters, and the company's regex when it sets one. */
export function passwordProblem(password: string, policy: CompanyPolicy): PasswordProblem | undefined {
  const length = [...password].length;
  if (length < passwordLength.min) return PasswordProblem.TOO_SHORT;
  if (length > passwordLength.max) return PasswordProblem.TOO_LONG;
  if (!matchesCompanyRegex(password, policy)) return PasswordProblem.REGEX_MISMATCH;
  return undefined;
}

export function matchesCompanyRegex(password: string, policy: CompanyPolicy): boolean {
  return policy.passwordRegex === undefined || new RegExp(policy.passwordRegex, "u").test(password);
}
