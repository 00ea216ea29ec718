import {
  ExponentialBackoff,
  fullJitterGenerator,
  handleAll,
  retry,
  TimeoutStrategy,
  timeout,
  wrap,
} from "cockatiel";
import type { Logger } from "pino";

/** How a process keeps trying to reach its store at start-up (docs/operations.md, "Starting without a store"). */
export interface ConnectRetry {
  /** Milliseconds one attempt may take: a store that hangs fails the attempt instead of holding it. */
  attemptTimeoutMs: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
}

/** The first wait's ceiling; each later one doubles it, up to ConnectRetry.maxDelayMs. */
const firstRetryDelayMs = 200;

export interface StoreConnection {
  /** What the log lines call the store: a kind or host:port, never a credential. */
  store: string;
  /** One attempt: connects and proves the store answers. */
  attempt(): Promise<void>;
  /** Closes what a failed or timed-out attempt opened, so that the next one starts clean. */
  abandon(): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Tries to reach a store until it answers: each attempt bounded by its own timeout, a warning per
 * failed attempt (its number, the error, the wait before the next), waits growing exponentially with
 * full jitter (a random wait below the bound, so that replicas restarting together spread out).
 * Resolves on the first attempt that succeeds; rejects only once `stop` is aborted.
 */
export async function connectWithRetry(
  connection: StoreConnection,
  settings: ConnectRetry,
  logger: Logger,
  stop: AbortSignal,
): Promise<void> {
  const retrying = retry(handleAll, {
    maxAttempts: Number.POSITIVE_INFINITY,
    backoff: new ExponentialBackoff({
      generator: fullJitterGenerator,
      initialDelay: Math.min(firstRetryDelayMs, settings.maxDelayMs),
      maxDelay: settings.maxDelayMs,
    }),
  });
  retrying.onRetry((failure) => {
    if (!("error" in failure)) return;
    logger.warn(
      {
        store: connection.store,
        attempt: failure.attempt,
        error: messageOf(failure.error),
        retryInMs: failure.delay,
      },
      "store not reached, retrying",
    );
  });
  // Aggressive: an attempt that outlives its time fails at once, whatever it is waiting for.
  const bounded = timeout(settings.attemptTimeoutMs, {
    strategy: TimeoutStrategy.Aggressive,
    abortOnReturn: false,
  });
  let attempts = 0;
  await wrap(retrying, bounded).execute(async ({ signal }) => {
    stop.throwIfAborted();
    attempts += 1;
    const abandon = () => connection.abandon();
    signal.addEventListener("abort", abandon, { once: true });
    try {
      await connection.attempt();
    } catch (error) {
      // A timed-out attempt was abandoned when its signal aborted.
      if (!signal.aborted) abandon();
      throw error;
    } finally {
      signal.removeEventListener("abort", abandon);
    }
  }, stop);
  logger.info({ store: connection.store, attempts }, "store reached");
}
