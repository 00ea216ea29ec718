import { AuthError } from "@auth/errors";
import { companyLimits, compareUnderBudget, type GuessBudget, tellingLockOuts } from "@auth/grpc-kit";
import { NotificationEvent } from "@auth/proto/identity";
import {
  CaptchaVerdict,
  CheckOutcome,
  CheckResult,
  type CheckSubject,
  type ReserveSecretCheckResponse,
  SecretKind,
} from "@auth/proto/session";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";
import { codesOf, type Step, step } from "../endpoint/step.js";
import { identityAcceptsCaptcha } from "./identity-captcha-check.js";
import { tellUser } from "./user-notices.js";

/**
 * The lock-out of one of the subject's budgets (docs/security.md, "Guesses per hour at one user"),
 * for the steps that answer auth.restricted before anything else (the login steps, in the spec's
 * order of checks): the password's unless another kind is given. Returns whether the subject's next
 * password needs a captcha.
 */
export const guardLockout = step(
  ["auth.restricted"],
  async (context: FlowContext, subject: CheckSubject, kind: SecretKind = SecretKind.PASSWORD) => {
    const budget = await context.backends.session.getCheckBudget({
      companyId: context.company.id,
      subject,
      kind,
      limits: companyLimits(context.company.policy),
    });
    if (budget.lockedOut) {
      throw new AuthError("auth.restricted", {
        retryAfterSeconds: budget.retryAfterSeconds,
        detail: "locked out",
      });
    }
    return budget.captchaRequired;
  },
);

/** How a step answers a check the budget refused. */
export type Refusal = ((outcome: CheckOutcome, retryAfterSeconds: number) => AuthError) & Step;

/**
 * A session checks one secret at a time (docs/security.md, "Guesses per hour at one user"): the
 * requests of a race with one token that find a check under way are answered as the losers of the
 * race for the session's move are, and spend nothing.
 */
const anotherCheckUnderWay = () =>
  new AuthError("auth.token.invalid", { detail: "another check of this session is under way" });

/**
 * The login steps tell the lock-out and the captcha (spec 4.2, 4.3, 4.6); a busy session is
 * auth.token.invalid, which every endpoint that takes a token lists already.
 */
export const loginRefusal: Refusal = step(
  ["auth.captcha.missing", "auth.captcha.invalid", "auth.restricted"],
  (outcome: CheckOutcome, retryAfterSeconds: number) => {
    switch (outcome) {
      case CheckOutcome.CAPTCHA_MISSING:
        return new AuthError("auth.captcha.missing", { fields: { captcha_required: true } });
      case CheckOutcome.CAPTCHA_INVALID:
        return new AuthError("auth.captcha.invalid", { fields: { captcha_required: true } });
      case CheckOutcome.SESSION_BUSY:
        return anotherCheckUnderWay();
      default:
        return new AuthError("auth.restricted", { retryAfterSeconds, detail: "locked out" });
    }
  },
);

/**
 * A recovery step's secret under the same budgets, although the spec gives those steps no
 * auth.restricted: a refused check answers as a wrong secret would, so every request of a burst
 * gets the same code, whichever was right; a busy session is auth.token.invalid, as above.
 */
export const wrongSecret = (code: "auth.otp.invalid" | "auth.controlanswer.invalid"): Refusal =>
  step([code], (outcome: CheckOutcome) =>
    outcome === CheckOutcome.SESSION_BUSY ? anotherCheckUnderWay() : new AuthError(code),
  );

/**
 * What the password's check would answer before its secret is compared, for a login step that
 * refuses on something the order of checks puts after the lock-out and the captcha
 * (docs/decisions.md, "Login": checkpassword's disclaimers): the lock-out, then the captcha,
 * verified with identity only when the budget asks for one. Nothing is spent.
 */
export const passwordCheckRefusal = step(
  codesOf(guardLockout, loginRefusal),
  async (context: FlowContext, userId: string, captchaResponse: string | undefined): Promise<void> => {
    if (!(await guardLockout(context, { userId }))) return;
    if (captchaResponse === undefined) throw loginRefusal(CheckOutcome.CAPTCHA_MISSING, 0);
    if (!(await identityAcceptsCaptcha(context, captchaResponse)))
      throw loginRefusal(CheckOutcome.CAPTCHA_INVALID, 0);
  },
);

/**
 * The session service's budgets as the gateway spends them: a wrong secret's report that locks
 * its user out tells the user (docs/security.md, "Notifications").
 */
function budgetOf(context: FlowContext): GuessBudget {
  return tellingLockOuts(context.backends.session, (_companyId, userId) =>
    tellUser(context, userId, NotificationEvent.LOCKED_OUT),
  );
}

export interface ReservedCheck {
  /**
   * Compares the secret and reports what it found (a right one forgets the failures of its kind). A
   * comparison that fails gives the check back.
   */
  run<T>(compare: () => Promise<T>, isRight: (found: T) => boolean): Promise<T>;
}

/**
 * Reserves one check of a secret in the request's session before it is compared, in one atomic
 * step at the session service, which owns the budgets: no burst of parallel requests gets more
 * checks than the budget has.
 */
export async function reserveCheck(
  context: SessionFlowContext,
  request: { subject: CheckSubject; kind: SecretKind },
  refuse: Refusal,
): Promise<ReservedCheck> {
  const companyId = context.company.id;
  const budget = budgetOf(context);
  const reserved = await budget.reserveSecretCheck({
    companyId,
    ...request,
    limits: companyLimits(context.company.policy),
    captcha: CaptchaVerdict.UNSPECIFIED,
    sessionToken: context.token,
  });
  if (reserved.outcome !== CheckOutcome.ALLOWED) throw refuse(reserved.outcome, reserved.retryAfterSeconds);
  const report = (result: CheckResult) =>
    budget.reportSecretCheck({ companyId, checkId: reserved.checkId, result });
  return {
    async run(compare, isRight) {
      let found: Awaited<ReturnType<typeof compare>>;
      try {
        found = await compare();
      } catch (error) {
        await report(CheckResult.UNCHECKED).catch(() => {});
        throw error;
      }
      await report(isRight(found) ? CheckResult.RIGHT : CheckResult.WRONG);
      return found;
    },
  };
}

/**
 * Compares a secret of the request's user in the request's session under the user's budget of its
 * kind, reserved by the gateway (the secrets whose comparing service does not reserve itself): as
 * identity's VerifyPassword does, a right one's check is left for the session move that rests on it.
 */
export async function compareInSession(
  context: SessionFlowContext,
  kind: SecretKind,
  compare: () => Promise<boolean>,
): Promise<{ valid: boolean; check: ReserveSecretCheckResponse }> {
  const { check, verdict } = await compareUnderBudget(
    budgetOf(context),
    {
      companyId: context.company.id,
      subject: { userId: context.session.userId },
      kind,
      limits: companyLimits(context.company.policy),
      sessionToken: context.token,
    },
    async () => ({ valid: await compare() }),
  );
  return { valid: verdict?.valid ?? false, check };
}

/**
 * After a secret compared under its subject's budget, by identity or by the gateway: a refused check
 * is thrown as the login steps tell it; a wrong secret (`right` undefined) counts as a failed login
 * and gives undefined; after a right one, `rest` runs with the check for the session move that rests
 * on it to report (its rightCheckId), and should the request fail before, the check is reported
 * right here (a second report does nothing).
 */
export const afterCheck = step(
  loginRefusal.errors,
  async <U, R>(
    context: FlowContext,
    check: ReserveSecretCheckResponse | undefined,
    right: U | undefined,
    rest: (right: U, rightCheckId: string) => Promise<R>,
  ): Promise<R | undefined> => {
    if (!check) throw new AuthError("service.unavailable", { detail: "no check was answered" });
    if (check.outcome !== CheckOutcome.ALLOWED) throw loginRefusal(check.outcome, check.retryAfterSeconds);
    if (right === undefined) return undefined;
    try {
      return await rest(right, check.checkId);
    } catch (error) {
      await context.backends.session
        .reportSecretCheck({
          companyId: context.company.id,
          checkId: check.checkId,
          result: CheckResult.RIGHT,
        })
        .catch(() => {});
      throw error;
    }
  },
);

/**
 * Forgets the subject's failures of every kind: a finished recovery proved who the user is, and a
 * user is told the recovery completed (docs/security.md, "Notifications").
 */
export async function forgetFailedChecks(context: FlowContext, subject: CheckSubject): Promise<void> {
  await context.backends.session.forgetFailedChecks({ companyId: context.company.id, subject });
  if (subject.userId) tellUser(context, subject.userId, NotificationEvent.RECOVERY_COMPLETED);
}
