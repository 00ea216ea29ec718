/**
 * The waits between two reads of something written by others (an outbox, the events file): short
 * while there is work, doubling up to `idleMs` while every read finds nothing, short again after a
 * `wake` (docs/operations.md, "Security events"). An idle service reads its store a few times a
 * second less, and a write its own process makes is still read within `busyMs`.
 */
export interface Pacing {
  /** Waits before the next read: `busyMs` after a read that found work or a wake, else longer each time. */
  wait(foundWork: boolean): Promise<void>;
  /** Something may have been written: the wait under way, or the next one, ends within `busyMs`. */
  wake(): void;
}

export function pacing(busyMs: number, idleMs: number, signal: AbortSignal): Pacing {
  const longest = Math.max(busyMs, idleMs);
  let next = busyMs;
  let woken = false;
  let shorten: (() => void) | undefined;

  return {
    wait(foundWork) {
      if (foundWork || woken) next = busyMs;
      woken = false;
      const ms = next;
      next = Math.min(next * 2, longest);
      return new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const end = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", end);
          shorten = undefined;
          resolve();
        };
        let timer = setTimeout(end, ms);
        const endsAt = Date.now() + ms;
        shorten = () => {
          shorten = undefined;
          if (endsAt - Date.now() <= busyMs) return;
          clearTimeout(timer);
          timer = setTimeout(end, busyMs);
        };
        signal.addEventListener("abort", end, { once: true });
      });
    },
    wake() {
      woken = true;
      shorten?.();
    },
  };
}
