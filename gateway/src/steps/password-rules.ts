import { type CompanyPolicy, PasswordProblem, type User } from "@auth/proto/identity";
import { passwordLength } from "@auth/runtime";

/**
 * What a user is told of the rules of a new password (docs/security.md, "Passwords"): the whole
 * set with state setpassword and recovery-setpassword, the rule broken with setpassword's 422.
 * The one table of these messages.
 */
const rules = {
  // Identity's answer for this user, which its SetPassword enforces (docs/decisions.md, "Second factors").
  length: (_policy: CompanyPolicy, user: User) =>
    `At least ${user.authenticators?.minPasswordLength ?? passwordLength.min} and at most ${passwordLength.max} characters.`,
  common: () => "Not a common or breached password.",
  context: () =>
    "Not containing the company's name or code, nor your login name, the name of your e-mail or your phone number.",
  notCurrent: () => "Not the current password.",
  // Last: the company's own words.
  regex: (policy: CompanyPolicy) =>
    policy.passwordRegex === undefined
      ? undefined
      : (policy.passwordRegexDescription ?? "Matching the company's password_regex."),
} satisfies Record<string, (policy: CompanyPolicy, user: User) => string | undefined>;

type Rule = keyof typeof rules;

const ruleOfProblem: Record<PasswordProblem, Rule | undefined> = {
  [PasswordProblem.UNSPECIFIED]: undefined,
  [PasswordProblem.UNRECOGNIZED]: undefined,
  [PasswordProblem.TOO_SHORT]: "length",
  [PasswordProblem.TOO_LONG]: "length",
  [PasswordProblem.COMMON]: "common",
  [PasswordProblem.CONTEXT]: "context",
  [PasswordProblem.REGEX_MISMATCH]: "regex",
  [PasswordProblem.SAME_AS_CURRENT]: "notCurrent",
};

/**
 * Every rule a new password of this user must meet, as `password_regex_description`; a recovery's
 * may be the current one (`currentRefused` false: docs/decisions.md, "Passwords").
 */
export function describePasswordRules(policy: CompanyPolicy, user: User, currentRefused = true): string {
  return (Object.keys(rules) as Rule[])
    .filter((rule) => currentRefused || rule !== "notCurrent")
    .map((rule) => rules[rule](policy, user))
    .filter((text) => text !== undefined)
    .join(" ");
}

/** The rule a refused new password breaks, as `password_regex_description` of the 422 answer. */
export function describePasswordProblem(problem: PasswordProblem, policy: CompanyPolicy, user: User): string {
  const rule = ruleOfProblem[problem];
  return (rule && rules[rule](policy, user)) ?? describePasswordRules(policy, user);
}
