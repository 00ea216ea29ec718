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
 * A read answered slower than this starts the count of a silence again: whatever held it up (a
 * store that stalled) may have held the holder's beats up too.
 */
const promptReadMs = 2 * beatMs;

/**
 * A retry's count of a holder's silence: from the answer of the first read that found the entry as
 * it is to the sending of the latest, counted again from the answer of any read that was not prompt.
 */
export class SilenceWatch {
  #seen: string | undefined;
  #since = 0;

  /** Records a read of the entry `raw`; true once the holder has been silent for holderSilentMs. */
  silent({ value: raw, sentAt, answeredAt }: TimedRead<string>): boolean {
    if (raw !== this.#seen || answeredAt - sentAt > promptReadMs) {
      this.#seen = raw;
      this.#since = answeredAt;
      return false;
    }
    return sentAt - this.#since >= holderSilentMs;
  }
}
