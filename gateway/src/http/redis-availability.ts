import type { Cluster, Redis } from "ioredis";

/** Commands failing in a row after which Redis counts as gone; a broken connection counts at once. */
const failuresUntilGone = 3;

/**
 * Whether the gateway's Redis can be counted on. One slow reply does not make it gone (the caller
 * decides what that one request gets); a broken connection or several failures in a row do, and
 * then a PING every `probeMs` finds it back. Whoever counted while Redis was away hears when it
 * is back (`onBack`): after a PING answers, and after every reconnection (ioredis reconnects by
 * itself; a Cluster each of its nodes), since a Redis that restarted has lost what it held.
 */
export class RedisAvailability {
  #failures = 0;
  #probing = false;
  #closed = false;
  #backAt = Number.NEGATIVE_INFINITY;
  readonly #listeners: Array<() => void> = [];

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly probeMs = 1_000,
  ) {
    this.#watch(redis);
    if (redis.isCluster) redis.on("+node", (node: Redis) => this.#watch(node));
  }

  get gone(): boolean {
    return this.redis.status !== "ready" || this.#failures >= failuresUntilGone;
  }

  /** Whether Redis came back (from gone) within the last `ms`. */
  backWithin(ms: number): boolean {
    return Date.now() - this.#backAt < ms;
  }

  /** Calls `listener` each time Redis is back, and once the first connection is ready. */
  onBack(listener: () => void): void {
    this.#listeners.push(listener);
  }

  succeeded(): void {
    this.#failures = 0;
  }

  failed(): void {
    this.#failures += 1;
    if (this.#failures >= failuresUntilGone) this.#probe();
  }

  /** Gone at once (what was to be given back did not reach it); the next PING that answers brings it back. */
  lost(): void {
    this.#failures = failuresUntilGone;
    this.#probe();
  }

  close(): void {
    this.#closed = true;
  }

  /** A connection's first ready is not a return; each later one follows a connection lost. */
  #watch(connection: Redis | Cluster): void {
    let connected = connection.status === "ready";
    connection.on("ready", () => {
      if (connected) return this.#back();
      connected = true;
      this.#tell();
    });
  }

  #back(): void {
    this.#failures = 0;
    this.#backAt = Date.now();
    this.#tell();
  }

  #tell(): void {
    if (this.#closed) return;
    for (const listener of this.#listeners) listener();
  }

  #probe(): void {
    if (this.#probing || this.#closed) return;
    this.#probing = true;
    setTimeout(() => {
      this.redis.ping().then(
        () => {
          this.#probing = false;
          this.#back();
        },
        () => {
          this.#probing = false;
          this.#probe();
        },
      );
    }, this.probeMs).unref();
  }
}
