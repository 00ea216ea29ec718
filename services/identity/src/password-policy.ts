import { type CompanyPolicy, PasswordProblem } from "@auth/proto/identity";
import { passwordLength } from "@auth/runtime";
import { comparable, isCommonPassword } from "./common-passwords.js";

/**
 * The rules of a password a user sets (docs/security.md, "Passwords"): at least the policy's
 * length for the user, at most 256 characters, not on the blocklist of common passwords, no word
 * of its context, and the company's regex when it sets one. Checked on the NFKC form, which is
 * the form hashed.
 */

/** Context words shorter than this are not looked for: they would refuse too many passwords. */
export const contextWordMinLength = 4;

export interface PasswordRules {
  policy: CompanyPolicy;
  /** The policy's least length for this user (users.ts, passwordRulesOf). */
  minLength: number;
  /** The words of the password's context, each as `contextWords` gives it. */
  contextWords: readonly string[];
}

export function passwordProblem(password: string, rules: PasswordRules): PasswordProblem | undefined {
  const normalized = password.normalize("NFKC");
  const length = [...normalized].length;
  if (length < rules.minLength) return PasswordProblem.TOO_SHORT;
  if (length > passwordLength.max) return PasswordProblem.TOO_LONG;
  if (isCommonPassword(normalized)) return PasswordProblem.COMMON;
  const lowered = comparable(normalized);
  if (rules.contextWords.some((word) => lowered.includes(word))) return PasswordProblem.CONTEXT;
  if (!matchesCompanyRegex(normalized, rules.policy)) return PasswordProblem.REGEX_MISMATCH;
  return undefined;
}

/**
 * The words to look for in a password, in the form compared (NFKC, lower case): each value as a
 * whole and each of its words (runs of letters and digits), those of at least
 * `contextWordMinLength` characters, without repeats.
 */
export function contextWords(values: readonly string[]): string[] {
  const words = values.flatMap((value) => {
    const whole = comparable(value);
    return [whole, ...whole.split(/[^\p{L}\p{N}]+/u)];
  });
  return [...new Set(words.filter((word) => [...word].length >= contextWordMinLength))];
}

export function matchesCompanyRegex(password: string, policy: CompanyPolicy): boolean {
  return policy.passwordRegex === undefined || new RegExp(policy.passwordRegex, "u").test(password);
}
