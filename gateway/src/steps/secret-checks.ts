import { AuthError } from "@auth/errors";
import {
  CheckOutcome,
  CheckResult,
  type CheckSubject,
  type ReserveSecretCheckResponse,
  SecretKind,
} from "@auth/proto/session";
import type { FlowContext } from "../endpoint/context.js";
import { securityEvent } from "../security-events.js";

/**
 * The lock-out (docs/security.md, "Guesses per hour"), for the steps that answer auth.restricted before anything else (the login
 * steps, in the spec's order of checks). Returns whether the subject's next password needs a captcha.
 */
export async function guardSubject(context: FlowContext, subject: CheckSubject): Promise<boolean> {
  const budget = await context.backends.session.getCheckBudget({ companyId: context.company.id, subject });
  if (budget.lockedOut) {
    throw new AuthError("auth.restricted", {
      retryAfterSeconds: budget.retryAfterSeconds,
      detail: "locked out",
    });
  }
  return budget.captchaRequired;
}

/** How a step answers a check the budget refused. */
export type Refusal = (outcome: CheckOutcome, retryAfterSeconds: number) => AuthError;

/** The login steps tell the lock-out and the captcha (spec 4.2, 4.3, 4.6). */
export const loginRefusal: Refusal = (outcome, retryAfterSeconds) => {
  switch (outcome) {
    case CheckOutcome.CAPTCHA_MISSING:
      return new AuthError("auth.captcha.missing", { fields: { captcha_required: true } });
    case CheckOutcome.CAPTCHA_INVALID:
      return new AuthError("auth.captcha.invalid", { fields: { captcha_required: true } });
    default:
      return new AuthError("auth.restricted", { retryAfterSeconds, detail: "locked out" });
  }
};

/**
 * A recovery step's secret under the same budget, although the spec gives those steps no
 * auth.restricted: a refused check answers as a wrong secret would, so every request of a burst
 * gets the same code, whichever was right.
 */
export const wrongSecret =
  (code: "auth.otp.invalid" | "auth.controlanswer.invalid"): Refusal =>
  () =>
    new AuthError(code);

export interface ReservedCheck {
  /** Whether the subject's next password needs a captcha should this check prove wrong. */
  captchaRequiredIfWrong: boolean;
  /** The user's credential generation as the check was reserved, for a session it starts. */
  credentialGeneration: string;
  /**
   * Compares the secret and reports what it found (a right one forgets the subject's failures). A
   * comparison that fails gives the check back, as does a request that fails before it.
   */
  run<T>(
    compare: () => Promise<T>,
    isRight: (found: T) => boolean,
  ): Promise<{ found: T; sessionEnded: boolean }>;
  /**
   * Compares the secret as run does, but leaves a right one for the session move that rests on it
   * to report in the same call (its rightCheckId): `rest` is the request after a right secret, the
   * move included, and should it fail the check is reported right here (a second report does
   * nothing). `rightOf` is what a right secret found, undefined for a wrong one: then runBeforeMove
   * reports it at once and returns undefined.
   */
  runBeforeMove<T, U, R>(
    compare: () => Promise<T>,
    rightOf: (found: T) => U | undefined,
    rest: (right: U, rightCheckId: string) => Promise<R>,
  ): Promise<R | undefined>;
  giveBack(): Promise<void>;
}

/**
 * Reserves one check of a secret before it is compared, in one atomic step at the session service,
 * which owns the budget: no burst of parallel requests gets more checks than the budget has.
 */
export async function reserveCheck(
  context: FlowContext,
  request: { subject: CheckSubject; kind: SecretKind; captchaResponse?: string; sessionToken?: string },
  refuse: Refusal,
): Promise<ReservedCheck> {
  const companyId = context.company.id;
  const reserved = await context.backends.session.reserveSecretCheck({
    companyId,
    ...request,
    clientAddress: context.clientAddress,
  });
  if (reserved.outcome !== CheckOutcome.ALLOWED) throw refuse(reserved.outcome, reserved.retryAfterSeconds);
  const report = (result: CheckResult) =>
    context.backends.session.reportSecretCheck({ companyId, checkId: reserved.checkId, result });
  async function compareOnce<T>(compare: () => Promise<T>): Promise<T> {
    try {
      return await compare();
    } catch (error) {
      await report(CheckResult.UNCHECKED).catch(() => {});
      throw error;
    }
  }
  async function reportWrong(): Promise<boolean> {
    const { sessionEnded } = await report(CheckResult.WRONG);
    securityEvent(context, "login.failed", { kind: request.kind });
    return sessionEnded;
  }
  return {
    captchaRequiredIfWrong: reserved.captchaRequired,
    credentialGeneration: reserved.credentialGeneration,
    async run(compare, isRight) {
      const found = await compareOnce(compare);
      if (!isRight(found)) return { found, sessionEnded: await reportWrong() };
      const { sessionEnded } = await report(CheckResult.RIGHT);
      return { found, sessionEnded };
    },
    async runBeforeMove(compare, rightOf, rest) {
      const right = rightOf(await compareOnce(compare));
      if (right === undefined) {
        await reportWrong();
        return undefined;
      }
      return afterRightCheck(context, reserved.checkId, (rightCheckId) => rest(right, rightCheckId));
    },
    giveBack: async () => {
      await report(CheckResult.UNCHECKED);
    },
  };
}

/**
 * The request after a right secret whose check the session move that rests on it reports (its
 * rightCheckId); should the request fail before, the check is reported right here (a second report
 * does nothing).
 */
async function afterRightCheck<R>(
  context: FlowContext,
  checkId: string,
  rest: (rightCheckId: string) => Promise<R>,
): Promise<R> {
  try {
    return await rest(checkId);
  } catch (error) {
    await context.backends.session
      .reportSecretCheck({ companyId: context.company.id, checkId, result: CheckResult.RIGHT })
      .catch(() => {});
    throw error;
  }
}

/**
 * A password or TOTP code identity compared under its subject's budget: identity reserves the check
 * itself before it compares (docs/security.md, "Guesses per hour"). A refused check is thrown as the
 * login steps tell it; a wrong secret (`right` undefined) counts as a failed login and gives
 * undefined; after a right one, `rest` runs as runBeforeMove's does.
 */
export async function afterIdentityCheck<U, R>(
  context: FlowContext,
  check: ReserveSecretCheckResponse | undefined,
  right: U | undefined,
  rest: (right: U, rightCheckId: string) => Promise<R>,
  kind: SecretKind = SecretKind.PASSWORD,
): Promise<R | undefined> {
  if (!check) throw new AuthError("service.unavailable", { detail: "identity answered no check" });
  if (check.outcome !== CheckOutcome.ALLOWED) throw loginRefusal(check.outcome, check.retryAfterSeconds);
  if (right === undefined) {
    securityEvent(context, "login.failed", { kind });
    return undefined;
  }
  return afterRightCheck(context, check.checkId, (rightCheckId) => rest(right, rightCheckId));
}

/** Forgets the subject's failures: a finished recovery proved who the user is. */
export async function forgetFailedChecks(context: FlowContext, subject: CheckSubject): Promise<void> {
  await context.backends.session.forgetFailedChecks({ companyId: context.company.id, subject });
}
