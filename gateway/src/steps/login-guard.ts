import { AuthError } from "@auth/errors";
import type { FlowContext } from "../flows/endpoint.js";
import { securityEvent } from "../security-events.js";

/**
 * DESIGN.md's lock-out: while the company is suspended, or the login ID has had too many failed
 * secrets in the window, every login step answers auth.restricted. Returns the failure count.
 */
export async function guardLoginId(context: FlowContext, loginId: string): Promise<number> {
  assertCompanyActive(context);
  const { failures, retryAfterSeconds } = await failuresOf(context, loginId);
  if (lockedOut(context, failures)) {
    throw new AuthError("auth.restricted", { retryAfterSeconds, detail: "login ID locked out" });
  }
  return failures;
}

/**
 * The same guard for a step that starts a session and checks no secret (auth/login): the company
 * is checked here, and the session service checks the login ID's failures while it creates the
 * session, refusing with auth.restricted, which saves login a call.
 */
export function guardInSessionStart(context: FlowContext): { refuseAtLoginFailures: number } {
  assertCompanyActive(context);
  return { refuseAtLoginFailures: context.company.policy.lockoutAfterFailures };
}

function assertCompanyActive(context: FlowContext): void {
  if (context.company.suspended) throw new AuthError("auth.restricted", { detail: "company suspended" });
}

/**
 * A recovery step's secret (OTP, control answer) under the same lock-out as the login's, although
 * the spec gives those steps no auth.restricted: while the login ID is locked out the secret is not
 * checked and counts as wrong, so that one budget bounds every kind of guess at a login ID.
 */
export async function recoverySecretValid(
  context: FlowContext,
  loginId: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const { failures } = await failuresOf(context, loginId);
  const valid = !lockedOut(context, failures) && (await check());
  if (!valid) await recordFailedSecret(context, loginId);
  return valid;
}

function failuresOf(context: FlowContext, loginId: string) {
  return context.backends.session.getLoginFailures({ companyId: context.company.id, loginId });
}

/** Counts a wrong password, OTP or backup code against the login ID; returns the new count. */
export async function recordFailedSecret(context: FlowContext, loginId: string): Promise<number> {
  const { failures } = await context.backends.session.recordLoginFailure({
    companyId: context.company.id,
    loginId,
    windowSeconds: context.company.policy.failureWindowSeconds,
  });
  securityEvent(context, "login.failed", { failures });
  return failures;
}

/** A success forgets the failures (and with them the captcha requirement); with none counted, nothing is to do. */
export async function forgetFailures(context: FlowContext, loginId: string, failures = 1): Promise<void> {
  if (failures === 0) return;
  await context.backends.session.resetLoginFailures({ companyId: context.company.id, loginId });
}

function lockedOut(context: FlowContext, failures: number): boolean {
  return failures >= context.company.policy.lockoutAfterFailures;
}

export function captchaRequired(context: FlowContext, failures: number): boolean {
  return failures >= context.company.policy.captchaAfterFailures;
}
