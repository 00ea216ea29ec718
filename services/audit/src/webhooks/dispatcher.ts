import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import type { AuditConfig } from "../config.js";
import type { AttemptOutcome, ClaimedDelivery, DeliveryStore } from "./delivery-store.js";
import { nextAttemptAt } from "./retry-schedule.js";
import type { AttemptResult, Sender } from "./sender.js";

export type DispatcherConfig = Pick<
  AuditConfig,
  | "WEBHOOK_CONCURRENCY"
  | "WEBHOOK_POLL_MS"
  | "WEBHOOK_TIMEOUT_MS"
  | "WEBHOOK_RETRY_BASE_MS"
  | "WEBHOOK_RETRY_MAX_MS"
>;

export interface DispatcherOptions {
  store: Pick<DeliveryStore, "claimDue" | "recordOutcome">;
  sender: Sender;
  config: DispatcherConfig;
  logger: Logger;
  now?: () => Date;
  /** The retries' jitter, a number in [0, 1). */
  random?: () => number;
  /** Settles once the database answers (PostgreSQL migrated): nothing is claimed before. */
  ready?: Promise<unknown>;
}

export interface Dispatcher {
  /** Looks for due deliveries now rather than at the next poll: the feed calls it after storing events. */
  nudge(): void;
  /** Claims nothing more, and resolves once the attempts under way are recorded. */
  stop(): Promise<void>;
}

/**
 * How long a claimed delivery is held past its attempt's timeout: room to record the outcome. Only a
 * sender that died leaves a delivery held this long; it is then sent again.
 */
const holdMarginMs = 30_000;

/**
 * The loop that sends the webhooks' deliveries, apart from every request path (docs/decisions.md,
 * "Audit trail and webhooks"): it claims due deliveries while fewer than WEBHOOK_CONCURRENCY attempts
 * are under way, and looks again after WEBHOOK_POLL_MS (or a nudge) once none is due. A 2xx
 * succeeds; a 410 makes the delivery dead and disables its webhook; anything else is retried with
 * backoff until its retry period ends, then dead.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, sender, config, logger } = options;
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const underWay = new Set<Promise<void>>();
  let stopped = false;
  let claimsFailing = false;
  let nudged = false;
  let wake: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (nudged || stopped) {
        nudged = false;
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

  const nudge = () => {
    if (wake) wake();
    else nudged = true;
  };

  function outcomeOf(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    attemptedAt: Date,
    endedAt: Date,
  ): AttemptOutcome {
    const attempt = { attemptedAt, status: result.status, error: result.error };
    if (result.status >= 200 && result.status < 300) return { ...attempt, state: "succeeded" };
    if (result.status === 410) return { ...attempt, state: "dead", gone: true };
    const next = nextAttemptAt(
      { attempts: delivery.attempts + 1, retryUntil: delivery.retryUntil },
      endedAt,
      config,
      random,
    );
    return next
      ? { ...attempt, state: "pending", nextAttemptAt: next }
      : { ...attempt, state: "dead", gone: false };
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = now();
    const result = await sender.send({
      url: delivery.url,
      eventId: delivery.eventId,
      payload: delivery.payload,
      secrets: delivery.secrets,
      timestamp: attemptedAt,
    });
    const outcome = outcomeOf(delivery, result, attemptedAt, now());
    // Who and why, never where: a URL may carry a receiver's token.
    const about = { webhookId: delivery.webhookId, deliveryId: delivery.id, status: result.status };
    try {
      await store.recordOutcome(delivery, outcome);
    } catch (error) {
      logger.warn(
        { ...about, err: error },
        "could not record a webhook delivery's attempt; it is sent again",
      );
      return;
    }
    metrics.webhookDeliveries.inc({ outcome: outcome.state === "pending" ? "failed" : outcome.state });
    if (outcome.state === "dead") {
      logger.warn(
        { ...about, error: result.error, attempts: delivery.attempts + 1 },
        outcome.gone
          ? "webhook disabled: its receiver answered 410 Gone"
          : "webhook delivery dead: its retry period is over",
      );
    } else if (outcome.state === "pending") {
      logger.debug({ ...about, error: result.error }, "webhook delivery failed; it is retried");
    }
  }

  async function loop(): Promise<void> {
    await options.ready?.catch(() => {});
    while (!stopped) {
      const free = config.WEBHOOK_CONCURRENCY - underWay.size;
      if (free <= 0) {
        await Promise.race(underWay);
        continue;
      }
      let claimed: ClaimedDelivery[];
      try {
        claimed = await store.claimDue(free, now(), config.WEBHOOK_TIMEOUT_MS + holdMarginMs);
      } catch (error) {
        // Once per outage, not once per poll: the database may be down for a while. A warning, as
        // every service's store outage is: nothing is lost, the deliveries wait.
        if (!claimsFailing)
          logger.warn({ err: error }, "could not claim due webhook deliveries; trying again");
        claimsFailing = true;
        await sleep(config.WEBHOOK_POLL_MS);
        continue;
      }
      if (claimsFailing) logger.info("claiming due webhook deliveries again");
      claimsFailing = false;
      for (const delivery of claimed) {
        const sending: Promise<void> = attempt(delivery).finally(() => underWay.delete(sending));
        underWay.add(sending);
      }
      if (claimed.length < free) await sleep(config.WEBHOOK_POLL_MS);
    }
    await Promise.all(underWay);
  }

  const running = loop();
  return {
    nudge,
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
