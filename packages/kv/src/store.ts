/** Milliseconds since the epoch; tests pass their own. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface Counter {
  count: number;
  /** Milliseconds until the counter's window ends (0 when there is no counter). */
  ttlMs: number;
}

/**
 * The small set of atomic operations the session, otp and recovery stores are built on. Every
 * operation touches one key, so the stores run unchanged on Redis Cluster. Values are strings;
 * every key has a lifetime.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the key only when it does not exist; true when it was set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Reads and deletes the key in one step, so that only one caller ever gets the value. */
  take(key: string): Promise<string | null>;
  /** True when the key existed. */
  delete(key: string): Promise<boolean>;
  /**
   * Replaces the value only when it is still `expected` (null deletes the key); true when it did.
   * Of two callers that read the same value, only one can replace it.
   */
  compareAndSet(key: string, expected: string, next: string | null, ttlMs: number): Promise<boolean>;
  /** Adds one to a counter whose window starts at its first increment and lasts windowMs. */
  increment(key: string, windowMs: number): Promise<Counter>;
  /**
   * Adds one to the counter only while it is below `ceiling`, in one step: of any number of
   * callers at once, at most `ceiling` are ever counted. The window starts at the first increment.
   */
  incrementBelow(key: string, windowMs: number, ceiling: number): Promise<Counter & { counted: boolean }>;
  /** Takes one back from a counter that is above zero, keeping its window; returns the count. */
  decrement(key: string): Promise<number>;
  /** Reads a counter without changing it. */
  readCounter(key: string): Promise<Counter>;
  /** Adds a member to a set, keeping the set at least ttlMs longer. */
  addToSet(key: string, member: string, ttlMs: number): Promise<void>;
  removeFromSet(key: string, member: string): Promise<void>;
  setMembers(key: string): Promise<string[]>;
  /** Resolves when the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
