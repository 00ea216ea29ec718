/** The retry settings of the configuration (docs/decisions.md, "Audit trail and webhooks", "Retries"). */
export interface RetrySettings {
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_RETRY_MAX_MS: number;
}

/**
 * The wait before the next attempt, once `attempts` have failed: the step doubles from the base up
 * to the maximum, and a random factor from 0.5 to 1 spreads the retries of receivers that come back
 * at once while keeping each wait at least half its step. `random` returns a number in [0, 1).
 */
export function retryDelayMs(attempts: number, settings: RetrySettings, random: () => number): number {
  const step = Math.min(
    settings.WEBHOOK_RETRY_MAX_MS,
    settings.WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1),
  );
  return step * (0.5 + 0.5 * random());
}

/** When a delivery that has failed `attempts` times is tried next; undefined when that is after `retryUntil` (dead). */
export function nextAttemptAt(
  delivery: { attempts: number; retryUntil: Date },
  now: Date,
  settings: RetrySettings,
  random: () => number,
): Date | undefined {
  const next = new Date(now.getTime() + retryDelayMs(delivery.attempts, settings, random));
  return next.getTime() > delivery.retryUntil.getTime() ? undefined : next;
}
