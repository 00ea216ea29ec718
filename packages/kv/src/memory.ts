import {
  type BoundedCounter,
  type Clock,
  type Counter,
  type Counters,
  type KeyNamedByValue,
  type KeyValueOutbox,
  type KeyValueStore,
  keyNamedBy,
  type OutboxEntry,
  systemClock,
  type Write,
  type WriteEvents,
} from "./store.js";

type Entry =
  | { value: string; expiresAt: number }
  | { members: Set<string>; expiresAt: number }
  | { counts: Map<string, number>; expiresAt: number };

/**
 * The in-process KeyValueStore of the embedded default: one process, nothing kept across restarts,
 * the same behaviour as the Redis store. Expired keys are dropped when read and swept once a minute.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: Clock;
  readonly #sweeper: NodeJS.Timeout;
  readonly #outbox: OutboxEntry[] = [];
  #nextPosition = 1;

  readonly outbox: KeyValueOutbox = {
    read: async (count) => this.#outbox.slice(0, count),
    acknowledge: async (positions) => {
      const dropped = new Set(positions);
      const kept = this.#outbox.filter((entry) => !dropped.has(entry.position));
      this.#outbox.splice(0, this.#outbox.length, ...kept);
    },
  };

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    this.#sweeper.unref();
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#clock.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #string(key: string): string | null {
    const entry = this.#live(key);
    return entry && "value" in entry ? entry.value : null;
  }

  /** Called in the same synchronous step as the change: nothing runs between the two. */
  #append(options: WriteEvents | undefined): void {
    for (const payload of options?.events ?? []) {
      this.#outbox.push({ position: String(this.#nextPosition++), payload });
    }
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
  }

  async get(key: string): Promise<string | null> {
    return this.#string(key);
  }

  async set(key: string, value: string, ttlMs: number, options?: WriteEvents): Promise<void> {
    this.#set(key, value, ttlMs, options);
  }

  #set(key: string, value: string, ttlMs: number, options?: WriteEvents): true {
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + ttlMs });
    this.#append(options);
    return true;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number, options?: WriteEvents): Promise<boolean> {
    if (this.#live(key)) return false;
    this.#entries.set(key, { value, expiresAt: this.#clock.now() + ttlMs });
    this.#append(options);
    return true;
  }

  async take(key: string, options?: WriteEvents): Promise<string | null> {
    const value = this.#string(key);
    if (value !== null) {
      this.#entries.delete(key);
      this.#append(options);
    }
    return value;
  }

  async delete(key: string, options?: WriteEvents): Promise<boolean> {
    return this.#delete(key, options);
  }

  #delete(key: string, options?: WriteEvents): boolean {
    const existed = this.#live(key) !== undefined;
    this.#entries.delete(key);
    if (existed) this.#append(options);
    return existed;
  }

  async compareAndSet(
    key: string,
    expected: string,
    next: string | null,
    ttlMs: number,
    options?: WriteEvents,
  ): Promise<boolean> {
    return this.#compareAndSet(key, expected, next, ttlMs, options);
  }

  #compareAndSet(
    key: string,
    expected: string,
    next: string | null,
    ttlMs: number,
    options?: WriteEvents,
  ): boolean {
    if (this.#string(key) !== expected) return false;
    if (next === null) this.#entries.delete(key);
    else this.#entries.set(key, { value: next, expiresAt: this.#clock.now() + ttlMs });
    this.#append(options);
    return true;
  }

  async increment(key: string, windowMs: number, options?: WriteEvents): Promise<Counter> {
    const counter = this.#increment(key, windowMs);
    this.#append(options);
    return counter;
  }

  // Synchronous, so that nothing runs between reading a counter and writing it.
  #increment(key: string, windowMs: number): Counter {
    const now = this.#clock.now();
    const current = this.#string(key);
    const expiresAt =
      current === null ? now + windowMs : (this.#entries.get(key)?.expiresAt ?? now + windowMs);
    const count = (current === null ? 0 : Number(current)) + 1;
    this.#entries.set(key, { value: String(count), expiresAt });
    return { count, ttlMs: expiresAt - now };
  }

  // Synchronous: nothing runs between reading the counters and counting them.
  async incrementEachBelow(counters: readonly BoundedCounter[], then: readonly Write[] = []) {
    const current = counters.map(({ key }) => this.#counter(key));
    const refusing = counters.findIndex((counter, i) => (current[i]?.count ?? 0) >= counter.ceiling);
    if (refusing >= 0) return { counted: false, counters: current.slice(0, refusing + 1) };
    const counted = counters.map(({ key, windowMs }) => this.#increment(key, windowMs));
    this.#writeInOrder(then);
    return { counted: true, counters: counted };
  }

  async incrementBelow(key: string, windowMs: number, ceiling: number, options?: WriteEvents) {
    const current = this.#counter(key);
    if (current.count >= ceiling) return { ...current, counted: false };
    const counter = this.#increment(key, windowMs);
    this.#append(options);
    return { ...counter, counted: true };
  }

  // No await in it: nothing runs between reading the counters and writing them.
  async incrementCounters(
    key: string,
    windowMs: number,
    names: readonly string[],
    ceilings: Readonly<Record<string, number>> = {},
    options?: WriteEvents,
  ): Promise<Counters & { counted: boolean }> {
    const current = this.#counters(key);
    const full = names.some(
      (name) => (current.counts[name] ?? 0) >= (ceilings[name] ?? Number.POSITIVE_INFINITY),
    );
    if (full) return { ...current, counted: false };
    const now = this.#clock.now();
    const entry = this.#live(key);
    const kept =
      entry && "counts" in entry ? entry : { counts: new Map<string, number>(), expiresAt: now + windowMs };
    for (const name of names) kept.counts.set(name, (kept.counts.get(name) ?? 0) + 1);
    this.#entries.set(key, kept);
    this.#append(options);
    return { ...this.#counters(key), counted: true };
  }

  async readCounters(key: string): Promise<Counters> {
    return this.#counters(key);
  }

  #counters(key: string): Counters {
    const entry = this.#live(key);
    if (!entry || !("counts" in entry)) return { counts: {}, ttlMs: 0 };
    return { counts: Object.fromEntries(entry.counts), ttlMs: entry.expiresAt - this.#clock.now() };
  }

  async decrement(key: string, options?: WriteEvents): Promise<number> {
    const entry = this.#live(key);
    if (!entry || !("value" in entry) || Number(entry.value) <= 0) return 0;
    entry.value = String(Number(entry.value) - 1);
    this.#append(options);
    return Number(entry.value);
  }

  async readCounter(key: string): Promise<Counter> {
    return this.#counter(key);
  }

  #counter(key: string): Counter {
    const entry = this.#live(key);
    if (!entry || !("value" in entry)) return { count: 0, ttlMs: 0 };
    return { count: Number(entry.value), ttlMs: entry.expiresAt - this.#clock.now() };
  }

  async getEach(keys: readonly string[]): Promise<Array<string | null>> {
    return keys.map((key) => this.#string(key));
  }

  // Synchronous: nothing runs between the reads.
  async getEachNaming(keys: readonly string[], named: KeyNamedByValue) {
    const values = keys.map((key) => this.#string(key));
    const key = keyNamedBy(values[named.from] ?? null, named);
    return { values, named: key === undefined ? null : this.#string(key) };
  }

  async writeInOrder(writes: readonly Write[]): Promise<boolean[]> {
    return this.#writeInOrder(writes);
  }

  // Synchronous: nothing runs between the read and the writes.
  async writeInOrderBelow(counter: { key: string; ceiling: number }, writes: readonly Write[]) {
    const read = this.#counter(counter.key);
    return { counter: read, made: read.count < counter.ceiling ? this.#writeInOrder(writes) : undefined };
  }

  // Synchronous: nothing runs between the writes.
  #writeInOrder(writes: readonly Write[]): boolean[] {
    const changed: boolean[] = [];
    let skipped = 0;
    for (const write of writes) {
      if (skipped > 0) {
        skipped -= 1;
        changed.push(false);
        continue;
      }
      const made = this.#write(write);
      changed.push(made);
      if (!made && write.op === "compareAndSet") {
        if (write.guards === undefined) break;
        skipped = write.guards;
      }
    }
    return changed;
  }

  #write(write: Write): boolean {
    switch (write.op) {
      case "set":
        return this.#set(write.key, write.value, write.ttlMs, write);
      case "compareAndSet":
        return this.#compareAndSet(write.key, write.expected, write.next, write.ttlMs, write);
      case "delete":
        return this.#delete(write.key, write);
      case "exchange":
        return this.#exchange(write.key, write.value, write.ttlMs) !== null;
      case "addToSet":
        return this.#addToSet(write.key, write.member, write.ttlMs);
      case "removeFromSet":
        return this.#removeFromSet(write.key, write.member);
    }
  }

  async exchange(key: string, value: string, ttlMs: number): Promise<string | null> {
    return this.#exchange(key, value, ttlMs);
  }

  #exchange(key: string, value: string, ttlMs: number): string | null {
    const previous = this.#string(key);
    this.#set(key, value, ttlMs);
    return previous;
  }

  async addToSet(key: string, member: string, ttlMs: number): Promise<void> {
    this.#addToSet(key, member, ttlMs);
  }

  #addToSet(key: string, member: string, ttlMs: number): true {
    const entry = this.#live(key);
    const expiresAt = this.#clock.now() + ttlMs;
    if (entry && "members" in entry) {
      entry.members.add(member);
      entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
    } else {
      this.#entries.set(key, { members: new Set([member]), expiresAt });
    }
    return true;
  }

  async removeFromSet(key: string, member: string): Promise<void> {
    this.#removeFromSet(key, member);
  }

  #removeFromSet(key: string, member: string): boolean {
    const entry = this.#live(key);
    if (!entry || !("members" in entry)) return false;
    const removed = entry.members.delete(member);
    if (entry.members.size === 0) this.#entries.delete(key);
    return removed;
  }

  async setMembers(key: string): Promise<string[]> {
    const entry = this.#live(key);
    return entry && "members" in entry ? [...entry.members] : [];
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#entries.clear();
  }
}
