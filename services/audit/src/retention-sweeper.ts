import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@auth/runtime";
import { messageOf } from "./feed/feed.js";
import type { AuditStore } from "./store/audit-store.js";

export interface RetentionSweeperOptions {
  store: Pick<AuditStore, "sweepRetention">;
  /** RETENTION_SWEEP_MS: milliseconds from the end of one sweep to the start of the next. */
  intervalMs: number;
  logger: Logger;
  /** Resolves once the database answers: the first sweep runs then. */
  ready?: Promise<void>;
  now?: () => Date;
}

/**
 * Deletes the events past their company's retention (docs/decisions.md, "Audit trail and
 * webhooks"): a first sweep as soon as the database answers, then one every interval. A sweep that
 * fails is logged and the next one tries again.
 */
export function startRetentionSweeper(options: RetentionSweeperOptions): { stop(): Promise<void> } {
  const { store, logger, intervalMs } = options;
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  const stopped = new Promise<void>((done) =>
    stopping.signal.addEventListener("abort", () => done(), { once: true }),
  );

  const running = (async () => {
    await Promise.race([options.ready, stopped]);
    while (!stopping.signal.aborted) {
      try {
        const deleted = await store.sweepRetention(now());
        if (deleted > 0) logger.info({ deleted }, "events past their retention deleted");
      } catch (error) {
        logger.warn({ error: messageOf(error) }, "retention sweep failed, trying again at the next");
      }
      await sleep(intervalMs, undefined, { signal: stopping.signal }).catch(() => {});
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
