/**
 * Who holds an Idempotency-Key while its request runs, and when a retry may take it over
 * (docs/decisions.md, "Idempotency-Key"). The holder beats: it rewrites its entry every `beatMs`
 * until it answers or its deadline passes. A retry that has seen the entry unchanged for
 * `holderSilentMs` takes the key: the holder can no longer answer (its gateway died, or its request
 * outlived its deadline). No clocks are compared across gateways: each retry times the silence itself.
 */

/** How often the request holding a key rewrites its entry. */
export const beatMs = 150;

/** A holder not heard of for this long is taken for gone: five beats, so a holder slowed by a busy machine keeps its key. */
export const holderSilentMs = 750;

/** One read of the store by a retry: what it found, and when (performance.now()) it was sent and answered. */
export interface TimedRead<T> {
  value: T;
  sentAt: number;
  answeredAt: number;
}

/**
 * A read answered slower than this, or sent this long after the one before it answered, starts the
 * count of a silence again: whatever held it up (a store that stalled, a process that did not run)
 * may have held the holder's beats up too.
 */
const promptReadMs = 2 * beatMs;

/**
 * A retry's count of a holder's silence: from the answer of the first read that found the entry as
 * it is to the sending of the latest, over reads that followed each other promptly and were
 * answered promptly. Once the holder counts as gone, it stays gone for that entry.
 */
export class SilenceWatch {
  #seen: string | undefined;
  #since = 0;
  #lastAnsweredAt = Number.NEGATIVE_INFINITY;
  #gone: string | undefined;

  /** Records a read of the entry `raw`; true once the holder has been silent for holderSilentMs. */
  silent({ value: raw, sentAt, answeredAt }: TimedRead<string>): boolean {
    const heldUp = answeredAt - sentAt > promptReadMs || sentAt - this.#lastAnsweredAt > promptReadMs;
    this.#lastAnsweredAt = answeredAt;
    if (raw === this.#gone) return true;
    if (raw !== this.#seen || heldUp) {
      this.#seen = raw;
      this.#since = answeredAt;
      return false;
    }
    if (sentAt - this.#since < holderSilentMs) return false;
    this.#gone = raw;
    return true;
  }
}
