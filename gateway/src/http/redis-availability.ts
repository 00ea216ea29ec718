import type { Cluster, Redis } from "ioredis";

/** Commands failing in a row after which Redis counts as gone; a broken connection counts at once. */
const failuresUntilGone = 3;

/**
 * Whether the gateway's Redis can be counted on. One slow reply does not make it gone (the caller
 * decides what that one request gets); a broken connection or several failures in a row do, and
 * then a PING every `probeMs` finds it back.
 */
export class RedisAvailability {
  #failures = 0;
  #probing = false;
  #closed = false;

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly probeMs = 1_000,
  ) {}

  get gone(): boolean {
    return this.redis.status !== "ready" || this.#failures >= failuresUntilGone;
  }

  succeeded(): void {
    this.#failures = 0;
  }

  failed(): void {
    this.#failures += 1;
    if (this.#failures >= failuresUntilGone) this.#probe();
  }

  close(): void {
    this.#closed = true;
  }

  #probe(): void {
    if (this.#probing || this.#closed) return;
    this.#probing = true;
    setTimeout(() => {
      this.redis.ping().then(
        () => {
          this.#probing = false;
          this.succeeded();
        },
        () => {
          this.#probing = false;
          this.#probe();
        },
      );
    }, this.probeMs).unref();
  }
}
