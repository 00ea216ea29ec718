import type { CompanyPolicy } from "@auth/proto/identity";
import {
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  type CheckSubject,
  type CompanyLimits,
  type ReserveSecretCheckResponse,
  type SecretKind,
  type SessionServiceService,
} from "@auth/proto/session";
import type { ServiceClient } from "./client.js";

/** The session service's budgets of secret checks, which a process spends before it compares a secret. */
export type GuessBudget = Pick<
  ServiceClient<typeof SessionServiceService>,
  "reserveSecretCheck" | "reportSecretCheck"
>;

/**
 * The limits the session service applies to a company's checks and sessions, as identity resolved
 * the company's policy: its callers send them (docs/security.md, "The limits a caller sends").
 */
export function companyLimits(policy: Pick<CompanyPolicy, keyof CompanyLimits>): CompanyLimits {
  return {
    captchaAfterFailures: policy.captchaAfterFailures,
    lockoutAfterFailures: policy.lockoutAfterFailures,
    failureWindowSeconds: policy.failureWindowSeconds,
    newDeviceNoticeDays: policy.newDeviceNoticeDays,
    maxSessionsPerUser: policy.maxSessionsPerUser,
  };
}

/**
 * The budget whose reports tell the user of the lock-out a wrong secret made: the session service
 * answers it, and the reporter tells (docs/security.md, "Notifications").
 */
export function tellingLockOuts(
  budget: GuessBudget,
  tell: (companyId: string, userId: string) => void,
): GuessBudget {
  return {
    reserveSecretCheck: (request) => budget.reserveSecretCheck(request),
    async reportSecretCheck(request) {
      const reported = await budget.reportSecretCheck(request);
      if (reported.lockedOutUserId) tell(request.companyId, reported.lockedOutUserId);
      return reported;
    },
  };
}

export interface Guess {
  companyId: string;
  subject: CheckSubject;
  /** The budget's kind of secret (each kind has its own). */
  kind: SecretKind;
  /** The company's limits (companyLimits). */
  limits: CompanyLimits;
  /** A password's captcha, as the caller verified it; none sent when absent. */
  captcha?: CaptchaVerdict;
  /** The session the secret is checked in, which checks one secret at a time. */
  sessionToken?: string;
}

/**
 * Compares a secret under its subject's budget of its kind (docs/security.md, "Guesses per hour at
 * one user"): one check is reserved at the session service first, in one atomic step, so that no
 * burst of parallel requests, from any caller, gets more comparisons than the budget has; `compare`
 * runs only when the budget allows. A wrong secret is reported at once; a right one's check is left
 * for the session move that rests on it to report (its check_id); a comparison that fails gives it
 * back.
 */
export async function compareUnderBudget<T extends { valid: boolean }>(
  budget: GuessBudget,
  guess: Guess,
  compare: () => Promise<T>,
): Promise<{ check: ReserveSecretCheckResponse; verdict?: T }> {
  const check = await budget.reserveSecretCheck({ captcha: CaptchaVerdict.UNSPECIFIED, ...guess });
  if (check.outcome !== CheckOutcome.ALLOWED) return { check };
  const report = (result: CheckResult) =>
    budget.reportSecretCheck({ companyId: guess.companyId, checkId: check.checkId, result });
  let verdict: T;
  try {
    verdict = await compare();
  } catch (error) {
    await report(CheckResult.UNCHECKED).catch(() => {});
    throw error;
  }
  if (verdict.valid) return { check, verdict };
  await report(CheckResult.WRONG);
  return { check: { ...check, checkId: "" }, verdict };
}
