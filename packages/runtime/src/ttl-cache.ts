/**
 * A small map whose entries expire: for values that change rarely and are read on every request
 * (a company and its policy), so that a few seconds of staleness buy a call or a query each time.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #loading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps nothing when the time to live is 0; drops the oldest entry when full. */
  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.maxEntries && !this.#entries.has(key)) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  /**
   * The value of a key, loaded once however many callers miss it at the same moment: a burst of
   * requests on a cold cache makes one call or query, not one each. A failed load is kept by no one.
   */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const loading = load().then((value) => {
      // Set only when no delete came while it loaded: the value read may be the one deleted.
      if (this.#loading.get(key) === loading) this.set(key, value);
      return value;
    });
    this.#loading.set(key, loading);
    try {
      return await loading;
    } finally {
      if (this.#loading.get(key) === loading) this.#loading.delete(key);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
    this.#loading.delete(key);
  }
}
