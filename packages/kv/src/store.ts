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

/** Counters kept together under one key: they share its window, which starts at the key's first count. */
export interface Counters {
  /** Each counter's count; a counter never counted is absent. */
  counts: Record<string, number>;
  /** Milliseconds until the window ends (0 when there is no key). */
  ttlMs: number;
}

/**
 * Security events a write appends to the store's outbox in the same atomic step as its change,
 * and only when the write changed something: a `setIfAbsent` that found the key, a `take` or
 * `delete` of nothing, a `compareAndSet` that lost, an `incrementBelow` or `incrementCounters`
 * that was not counted, a `decrement` of nothing append nothing (docs/decisions.md, "Security events").
 */
export interface WriteEvents {
  /** Each event's JSON (`eventJson` of @auth/events). */
  events?: readonly string[];
}

/** An event waiting in the store's outbox; `position` orders them as their writes were committed. */
export interface OutboxEntry {
  position: string;
  payload: string;
}

/** The relay's side of the outbox: read the oldest entries, drop them once published. */
export interface KeyValueOutbox {
  /** Up to `count` of the oldest entries, oldest first. */
  read(count: number): Promise<OutboxEntry[]>;
  /** Drops the entries at these positions. */
  acknowledge(positions: readonly string[]): Promise<void>;
}

/** A counter of incrementEachBelow: counted only while below its ceiling, in a window from its first count. */
export interface BoundedCounter {
  key: string;
  windowMs: number;
  ceiling: number;
}

/**
 * A key named by a value that getEachNaming read: the value (a JSON object) of the key at `from`
 * among those read, and the name made of `parts`, each a literal or a string field of that value.
 */
export interface KeyNamedByValue {
  from: number;
  parts: ReadonlyArray<string | { field: string }>;
}

/** The key the value names (store.ts, KeyNamedByValue); undefined when it names none. */
export function keyNamedBy(value: string | null, { parts }: KeyNamedByValue): string | undefined {
  if (value === null) return undefined;
  let fields: unknown;
  try {
    fields = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof fields !== "object" || fields === null) return undefined;
  let key = "";
  for (const part of parts) {
    const text = typeof part === "string" ? part : (fields as Record<string, unknown>)[part.field];
    if (typeof text !== "string") return undefined;
    key += text;
  }
  return key;
}

/**
 * One write of writeInOrder, as its single-key operation makes it: events are appended only when
 * it changes something; an addToSet always does (it keeps the set longer), a removeFromSet when the
 * member was there; an exchange, which appends none, answers whether the key had a value. A
 * compareAndSet that loses ends the writes after it, or, given `guards`, only
 * skips the next `guards` of them (a move's own writes, when the writes after them are another's).
 */
export type Write =
  | ({ op: "set"; key: string; value: string; ttlMs: number } & WriteEvents)
  | ({
      op: "compareAndSet";
      key: string;
      expected: string;
      next: string | null;
      ttlMs: number;
      guards?: number;
    } & WriteEvents)
  | ({ op: "delete"; key: string } & WriteEvents)
  | { op: "exchange"; key: string; value: string; ttlMs: number }
  | { op: "addToSet"; key: string; member: string; ttlMs: number }
  | { op: "removeFromSet"; key: string; member: string };

/**
 * The small set of atomic operations the session, otp and recovery stores are built on. Every
 * single-key operation touches one key, so the stores run unchanged on Redis Cluster. The
 * composite ones (getEach, getEachNaming, incrementEachBelow, writeInOrder, writeInOrderBelow) save round trips: one step on one
 * Redis, and on Redis Cluster, whose keys of one call may live on different nodes, key by key with
 * the outcome the same steps one after another have (docs/performance.md, "Redis round trips per
 * login"). Values are strings; every key has a lifetime.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number, options?: WriteEvents): Promise<void>;
  /** Sets the key only when it does not exist; true when it was set. */
  setIfAbsent(key: string, value: string, ttlMs: number, options?: WriteEvents): Promise<boolean>;
  /** Reads and deletes the key in one step, so that only one caller ever gets the value. */
  take(key: string, options?: WriteEvents): Promise<string | null>;
  /** True when the key existed. */
  delete(key: string, options?: WriteEvents): Promise<boolean>;
  /**
   * Replaces the value only when it is still `expected` (null deletes the key); true when it did.
   * Of two callers that read the same value, only one can replace it.
   */
  compareAndSet(
    key: string,
    expected: string,
    next: string | null,
    ttlMs: number,
    options?: WriteEvents,
  ): Promise<boolean>;
  /** Adds one to a counter whose window starts at its first increment and lasts windowMs. */
  increment(key: string, windowMs: number, options?: WriteEvents): Promise<Counter>;
  /**
   * Adds one to the counter only while it is below `ceiling`, in one step: of any number of
   * callers at once, at most `ceiling` are ever counted. The window starts at the first increment.
   */
  incrementBelow(
    key: string,
    windowMs: number,
    ceiling: number,
    options?: WriteEvents,
  ): Promise<Counter & { counted: boolean }>;
  /**
   * Adds one to each of the named counters of the key, in one step, only when every counter given
   * a ceiling is below it: of any number of callers at once, no counter ever passes its ceiling.
   * The counters share the key's window, which starts at its first count and lasts windowMs.
   */
  incrementCounters(
    key: string,
    windowMs: number,
    names: readonly string[],
    ceilings?: Readonly<Record<string, number>>,
    options?: WriteEvents,
  ): Promise<Counters & { counted: boolean }>;
  /**
   * Adds one to each counter, in order, only when every one is below its ceiling: the first at its
   * ceiling refuses them all, and none is counted. Of any number of callers at once, no counter ever
   * passes its ceiling. Answers each counter up to the one that refused (all of them when counted),
   * as it is after the call. When counted, `then` is written in the same step, as writeInOrder
   * writes it (a reserved check's record). On Redis Cluster the counters are counted one by one,
   * those before a refusal taken back, and the writes made after them.
   */
  incrementEachBelow(
    counters: readonly BoundedCounter[],
    then?: readonly Write[],
  ): Promise<{ counted: boolean; counters: Counter[] }>;
  /** Reads the counters of a key without changing them. */
  readCounters(key: string): Promise<Counters>;
  /**
   * Takes one back from a counter that is above zero, keeping its window; returns the count. The
   * events are appended only when it took one back.
   */
  decrement(key: string, options?: WriteEvents): Promise<number>;
  /** Reads a counter without changing it. */
  readCounter(key: string): Promise<Counter>;
  /** Reads several keys; null for each missing one. On Redis Cluster, key by key. */
  getEach(keys: readonly string[]): Promise<Array<string | null>>;
  /**
   * Reads the keys, then the key one of their values names, in one step: `named` is that key's
   * value, null when it is missing or when the value naming it is missing, not a JSON object or
   * lacks a field (then it is not read). On Redis Cluster, the keys first, then the named one.
   */
  getEachNaming(
    keys: readonly string[],
    named: KeyNamedByValue,
  ): Promise<{ values: Array<string | null>; named: string | null }>;
  /**
   * Makes the writes in order, each as its single-key operation does; a compareAndSet that loses
   * ends them: the writes after it are not made, or only the `guards` next ones when it has them.
   * Answers, for each write up to one that ended them (the lost compareAndSet last), whether it
   * changed something; a skipped write answers false. One step on one Redis; on Redis Cluster one
   * by one.
   */
  writeInOrder(writes: readonly Write[]): Promise<boolean[]>;
  /**
   * Reads the counter, and makes the writes as writeInOrder makes them only while it is below its
   * ceiling, in one step: answers the counter as read and, when it was below, what writeInOrder
   * answers (a lock-out read in the step that starts a session). On Redis Cluster the counter is
   * read first, then the writes made one by one.
   */
  writeInOrderBelow(
    counter: { key: string; ceiling: number },
    writes: readonly Write[],
  ): Promise<{ counter: Counter; made: boolean[] | undefined }>;
  /** Sets the key and answers the value it had (null when it had none), in one step. */
  exchange(key: string, value: string, ttlMs: number): Promise<string | null>;
  /** Adds a member to a set, keeping the set at least ttlMs longer. */
  addToSet(key: string, member: string, ttlMs: number): Promise<void>;
  removeFromSet(key: string, member: string): Promise<void>;
  setMembers(key: string): Promise<string[]>;
  /** The events the writes above appended, for the relay (packages/events). */
  readonly outbox: KeyValueOutbox;
  /** Resolves when the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
