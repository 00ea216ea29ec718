/** The rate limits count per minute: each key's window starts with its first request. */
export const windowMs = 60_000;

/** What this gateway counted of one key in one window. */
export interface WindowCount {
  /** When the window ends (ms since the epoch): Redis's end once Redis has answered for it. */
  end: number;
  /** The requests this gateway counted in the window, in Redis or not. */
  own: number;
  /** The other gateways' requests in the window, as Redis last said (0 until it has). */
  othersHeard: number;
}

/**
 * This gateway's own count of every key, per window: the count that decides without Redis, and
 * the one it gives Redis again when Redis comes back (shared-windows.ts), so that nothing this
 * gateway counted while Redis was away is missing there.
 */
export class WindowCounts {
  readonly #counts = new Map<string, WindowCount>();
  #sweepAt = 0;

  /** Counts one request of the key at `now`: in the key's window, or in a new one if it has ended. */
  add(key: string, now: number): WindowCount {
    this.#sweep(now);
    let count = this.#counts.get(key);
    if (!count || count.end <= now) {
      count = { end: now + windowMs, own: 0, othersHeard: 0 };
      this.#counts.set(key, count);
    }
    count.own += 1;
    return count;
  }

  /** The keys whose window has not ended at `now`, with their counts. */
  live(now: number): Array<[string, WindowCount]> {
    return [...this.#counts].filter(([, count]) => count.end > now);
  }

  /** Forgets the ended windows, once a window at most. */
  #sweep(now: number): void {
    if (now < this.#sweepAt) return;
    this.#sweepAt = now + windowMs;
    for (const [key, count] of this.#counts) if (count.end <= now) this.#counts.delete(key);
  }
}
