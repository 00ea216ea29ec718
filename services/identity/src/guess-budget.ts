import type { ServiceClient } from "@auth/grpc-kit";
import {
  CheckOutcome,
  CheckResult,
  type CheckSubject,
  type ReserveSecretCheckResponse,
  SecretKind,
  type SessionServiceService,
} from "@auth/proto/session";

/** The session service's budgets of secret checks, which identity spends before it compares a password or TOTP code. */
export type GuessBudget = Pick<
  ServiceClient<typeof SessionServiceService>,
  "reserveSecretCheck" | "reportSecretCheck"
>;

/**
 * What identity asks of the session service: to spend budgets of guesses, and to end a user's
 * sessions when the user's authenticators change.
 */
export type SessionCalls = GuessBudget &
  Pick<ServiceClient<typeof SessionServiceService>, "revokeUserSessions">;

export interface PasswordGuess {
  companyId: string;
  subject: CheckSubject;
  /** The budget's kind of secret: a password unless given (a TOTP code spends the OTP budget). */
  kind?: SecretKind;
  captchaResponse?: string;
  clientAddress: string;
}

/**
 * Compares a password under its subject's budget (docs/security.md, "Guesses per hour"): one check
 * is reserved at the session service first, in one atomic step, so that no burst of parallel
 * requests, from any caller, gets more comparisons than the budget has; `compare` runs only when
 * the budget allows. A wrong password is reported at once; a right one's check is left for the
 * session move that rests on it to report (its check_id); a comparison that fails gives it back.
 */
export async function compareUnderBudget<T extends { valid: boolean }>(
  budget: GuessBudget,
  guess: PasswordGuess,
  compare: () => Promise<T>,
): Promise<{ check: ReserveSecretCheckResponse; verdict?: T }> {
  const check = await budget.reserveSecretCheck({ ...guess, kind: guess.kind ?? SecretKind.PASSWORD });
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
