import { AuthError } from "@auth/errors";

/** The deployment's bounds of one SMS send (SMS_HTTP_TIMEOUT_MS, SMS_HTTP_RETRIES), for every provider. */
export interface HttpDefaults {
  /** Of each attempt; a Retry-After longer than this is not waited for. */
  timeoutMs: number;
  /** Further attempts after the first, when the rule allows one. */
  retries: number;
}

/**
 * What a failed attempt says about the message (docs/decisions.md, "SMS providers"):
 * - `not-taken`: the provider did not take it (a refused connection, 503, 429), so a retry sends it
 *   at most once;
 * - `maybe-taken`: it may have reached the provider (a timeout, a reset, another 5xx);
 * - `refused`: the provider answered that it never will (bad credentials, a refused number).
 * `problem` names what happened for logs: a status or a provider's code, never the number or text.
 */
export type SendFailure =
  | { outcome: "not-taken"; problem: string; retryAfterMs?: number }
  | { outcome: "maybe-taken" | "refused"; problem: string };

export interface RetryRule extends HttpDefaults {
  /** Whether the provider drops a repeat of a message it took (the HTTP sender's Idempotency-Key). */
  idempotent: boolean;
}

/** Network errors that come before the request is written: the provider cannot have taken it. */
const neverSent = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** The string `code` of an error or of one of its causes (SDKs wrap the socket's error differently). */
function errorCodeOf(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code } = cause as { code?: unknown };
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** A request that got no answer: not taken if it was never sent, maybe taken otherwise. */
export function failureOfNetwork(error: unknown): SendFailure {
  const code = errorCodeOf(error);
  const problem = code ?? (error instanceof Error ? error.name : "request failed");
  return { outcome: code && neverSent.has(code) ? "not-taken" : "maybe-taken", problem };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now; absent or unreadable: undefined. */
function retryAfterMsOf(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A provider's answer other than success, by its HTTP status (or the status a provider's code stands for). */
export function failureOfAnswer(
  status: number,
  retryAfter: string | null | undefined,
  problem: string,
): SendFailure {
  if (status === 429 || status === 503) {
    const retryAfterMs = retryAfterMsOf(retryAfter);
    return retryAfterMs === undefined
      ? { outcome: "not-taken", problem }
      : { outcome: "not-taken", problem, retryAfterMs };
  }
  return { outcome: status >= 500 ? "maybe-taken" : "refused", problem };
}

/** How long to wait before retry number `retry` (1 first) after `failure`; undefined: never. */
export function waitBeforeRetry(failure: SendFailure, rule: RetryRule, retry: number): number | undefined {
  if (retry > rule.retries) return undefined;
  const backoffMs = 100 * 2 ** (retry - 1);
  switch (failure.outcome) {
    case "refused":
      return undefined;
    case "maybe-taken":
      return rule.idempotent ? backoffMs : undefined;
    case "not-taken":
      if (failure.retryAfterMs === undefined) return backoffMs;
      return failure.retryAfterMs <= rule.timeoutMs ? failure.retryAfterMs : undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds or the rule says stop; then fails with service.unavailable
 * naming the last problem. Every provider sends through this, each telling what its SDK's errors
 * mean with `failureOf`.
 */
export async function sendWithRetries(
  attempt: () => Promise<void>,
  failureOf: (error: unknown) => SendFailure,
  rule: RetryRule,
): Promise<void> {
  for (let retry = 1; ; retry += 1) {
    let failure: SendFailure;
    try {
      return await attempt();
    } catch (error) {
      failure = failureOf(error);
    }
    const waitMs = waitBeforeRetry(failure, rule, retry);
    if (waitMs === undefined) {
      throw new AuthError("service.unavailable", { detail: `SMS not sent: ${failure.problem}` });
    }
    await sleep(waitMs);
  }
}
