import { AuthError } from "@auth/errors";
import { type ConnectRetry, connectWithRetry, type Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import { Cluster, Redis } from "ioredis";
import {
  type BoundedCounter,
  type Counter,
  type Counters,
  type KeyNamedByValue,
  type KeyValueOutbox,
  type KeyValueStore,
  keyNamedBy,
  type Write,
  type WriteEvents,
} from "./store.js";
import { describeTarget, type RedisTarget } from "./target.js";

/** The stream the writes append their events to; keyPrefix applies to it as to every key. */
const outboxKey = "outbox";

/** Lua appending each ARGV from `first` on to the stream `stream`, as its field `event`. */
const appendEvents = (stream: string, first: number) => `
  for i = ${first}, #ARGV do redis.call('XADD', ${stream}, '*', 'event', ARGV[i]) end`;

/**
 * A write as one script. Its change, on KEYS[1] and its first `args` ARGV, returns whether it
 * changed something, and its reply if it has one; the script answers {1 or 0, reply}. Given the
 * outbox as KEYS[2], the script also appends the ARGV after the change's own, only when the change
 * changed something (docs/decisions.md, "Security events").
 */
function write(args: number, change: string) {
  return `
    local changed, reply = (function() ${change} end)()
    if changed and KEYS[2] then ${appendEvents("KEYS[2]", args + 1)} end
    return {changed and 1 or 0, reply}`;
}

/**
 * Lua making writes in order (writeInOrder): the writes as JSON objects ({o, v, x, d, t, g, e}: op,
 * value or member, expected, delete, ttlMs, guards, events), the i-th on KEYS[first + i], the events
 * appended to `outbox` (nil: none). Answers 1 or 0 per write made (0 for a skipped one).
 */
const writeInOrder = `
  local function write_in_order(writes, first, outbox)
    local made, skipped = {}, 0
    for i, w in ipairs(writes) do
      local key, changed, skip = KEYS[first + i], false, skipped > 0
      if skip then
        skipped = skipped - 1
      elseif w.o == 'set' then
        redis.call('SET', key, w.v, 'PX', w.t)
        changed = true
      elseif w.o == 'compareAndSet' then
        changed = redis.call('GET', key) == w.x
        if changed and w.d then redis.call('DEL', key)
        elseif changed then redis.call('SET', key, w.v, 'PX', w.t) end
      elseif w.o == 'delete' then
        changed = redis.call('DEL', key) > 0
      elseif w.o == 'exchange' then
        changed = redis.call('SET', key, w.v, 'PX', w.t, 'GET') ~= false
      elseif w.o == 'addToSet' then
        redis.call('SADD', key, w.v)
        if redis.call('PTTL', key) < w.t then redis.call('PEXPIRE', key, w.t) end
        changed = true
      elseif w.o == 'removeFromSet' then
        changed = redis.call('SREM', key, w.v) > 0
      end
      if changed and outbox and w.e then
        for _, event in ipairs(w.e) do redis.call('XADD', outbox, '*', 'event', event) end
      end
      made[i] = changed and 1 or 0
      if not skip and not changed and w.o == 'compareAndSet' then
        if not w.g then break end
        skipped = w.g
      end
    end
    return made
  end`;

const writes = {
  // ARGV: value, ttlMs
  kvSet: write(2, `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return true`),
  // ARGV: value, ttlMs
  kvSetIfAbsent: write(2, `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') ~= false`),
  kvTake: write(0, `local value = redis.call('GETDEL', KEYS[1]) return value ~= false, value`),
  kvDelete: write(0, `return redis.call('DEL', KEYS[1]) > 0`),
  // ARGV: expected, next, ttlMs, "1" when next means delete
  kvCompareAndSet: write(
    4,
    `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
     if ARGV[4] == '1' then redis.call('DEL', KEYS[1])
     else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
     return true`,
  ),
  // ARGV: windowMs
  kvIncrement: write(
    1,
    `local count = redis.call('INCR', KEYS[1])
     if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
     return true, {count, redis.call('PTTL', KEYS[1])}`,
  ),
  // ARGV: windowMs, ceiling
  kvIncrementBelow: write(
    2,
    `local count = tonumber(redis.call('GET', KEYS[1]) or '0')
     if count >= tonumber(ARGV[2]) then return false, {count, redis.call('PTTL', KEYS[1])} end
     count = redis.call('INCR', KEYS[1])
     if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
     return true, {count, redis.call('PTTL', KEYS[1])}`,
  ),
  // ARGV: windowMs, the counters as JSON [[name, ceiling or -1 for none], ...]; the key is a hash.
  kvIncrementCounters: write(
    2,
    `local counters = cjson.decode(ARGV[2])
     for _, counter in ipairs(counters) do
       if counter[2] >= 0 and tonumber(redis.call('HGET', KEYS[1], counter[1]) or '0') >= counter[2] then
         return false, {redis.call('HGETALL', KEYS[1]), redis.call('PTTL', KEYS[1])}
       end
     end
     for _, counter in ipairs(counters) do redis.call('HINCRBY', KEYS[1], counter[1], 1) end
     if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
     return true, {redis.call('HGETALL', KEYS[1]), redis.call('PTTL', KEYS[1])}`,
  ),
  kvDecrement: write(
    0,
    `local count = tonumber(redis.call('GET', KEYS[1]) or '0')
     if count <= 0 then return false, 0 end
     return true, redis.call('DECR', KEYS[1])`,
  ),
} as const;

type WriteName = keyof typeof writes;

/** The name of a write's script that is also given the outbox (as its second key). */
const appending = (name: WriteName) => `${name}Appending` as const;

const scripts = {
  // Of each write: the change alone (one key, as Redis Cluster needs), and with the append.
  ...Object.fromEntries(
    Object.entries(writes).flatMap(([name, lua]) => [
      [name, { numberOfKeys: 1, lua }],
      [appending(name as WriteName), { numberOfKeys: 2, lua }],
    ]),
  ),
  kvAppend: { numberOfKeys: 1, lua: appendEvents("KEYS[1]", 1) },
  kvReadCounter: {
    numberOfKeys: 1,
    lua: `
      local count = redis.call('GET', KEYS[1])
      if not count then return {0, 0} end
      return {tonumber(count), redis.call('PTTL', KEYS[1])}`,
  },
  // KEYS: the counters, then the writes' keys and the outbox as kvWriteInOrder's; ARGV: [[windowMs,
  // ceiling], ...] as JSON, the writes made when counted as JSON. Answers {1 or 0, {{count, ttlMs}, ...}}.
  kvIncrementEachBelow: {
    lua: `
      ${writeInOrder}
      local counters, writes = cjson.decode(ARGV[1]), cjson.decode(ARGV[2])
      local function read(key)
        local count = redis.call('GET', key)
        if not count then return {0, 0} end
        return {tonumber(count), redis.call('PTTL', key)}
      end
      for i, counter in ipairs(counters) do
        if read(KEYS[i])[1] >= counter[2] then
          local read_ = {}
          for j = 1, i do read_[j] = read(KEYS[j]) end
          return {0, read_}
        end
      end
      local counted = {}
      for i, counter in ipairs(counters) do
        if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], counter[1]) end
        counted[i] = read(KEYS[i])
      end
      write_in_order(writes, #counters, KEYS[#counters + #writes + 1])
      return {1, counted}`,
  },
  // KEYS: each write's key, then the outbox when a write has events; ARGV: the writes as JSON
  // ({o, v, x, d, t, e}: op, value or member, expected, delete, ttlMs, events). Answers 1 or 0 per write made.
  kvWriteInOrder: {
    lua: `
      ${writeInOrder}
      local writes = cjson.decode(ARGV[1])
      return write_in_order(writes, 0, KEYS[#writes + 1])`,
  },
  // KEYS: the counter, then the writes' keys and the outbox as kvWriteInOrder's; ARGV: the
  // counter's ceiling, the writes as JSON. Answers {{count, ttlMs}, made per write or false}.
  kvWriteInOrderBelow: {
    lua: `
      ${writeInOrder}
      local value = redis.call('GET', KEYS[1])
      local counter = {0, 0}
      if value then counter = {tonumber(value), redis.call('PTTL', KEYS[1])} end
      if counter[1] >= tonumber(ARGV[1]) then return {counter, false} end
      local writes = cjson.decode(ARGV[2])
      return {counter, write_in_order(writes, 1, KEYS[#writes + 2])}`,
  },
  // KEYS: the keys read; ARGV: the key prefix, the index (from 1) of the value naming the key, its
  // parts as JSON ([[0, literal] or [1, field], ...]). Answers {values, the named key's value}.
  kvGetEachNaming: {
    lua: `
      local values = redis.call('MGET', unpack(KEYS))
      local source, named = values[tonumber(ARGV[2])], false
      local ok, fields = false, nil
      if source then ok, fields = pcall(cjson.decode, source) end
      if ok and type(fields) == 'table' then
        local key = ARGV[1]
        for _, part in ipairs(cjson.decode(ARGV[3])) do
          local text = part[2]
          if part[1] == 1 then text = fields[part[2]] end
          if type(text) ~= 'string' then key = nil break end
          key = key .. text
        end
        if key then named = redis.call('GET', key) end
      end
      return {values, named}`,
  },
  kvReadCounters: {
    numberOfKeys: 1,
    lua: `return {redis.call('HGETALL', KEYS[1]), redis.call('PTTL', KEYS[1])}`,
  },
  kvAddToSet: {
    numberOfKeys: 1,
    lua: `
      redis.call('SADD', KEYS[1], ARGV[1])
      if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
      return 1`,
  },
};

type Argument = string | number;

/** A hash's counters as a script answers them: HGETALL's flat [name, count, ...], and the PTTL. */
type HashCounters = [fields: string[], ttlMs: number];

function countersOf([fields, ttlMs]: HashCounters): Counters {
  const counts: Record<string, number> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) counts[fields[i] as string] = Number(fields[i + 1]);
  return { counts, ttlMs: Math.max(ttlMs, 0) };
}

type ScriptClient = Record<
  WriteName | ReturnType<typeof appending>,
  (...keysAndArgs: Argument[]) => Promise<[changed: number, reply?: unknown]>
> & {
  kvAppend(stream: string, ...events: string[]): Promise<null>;
  kvReadCounter(key: string): Promise<[number, number]>;
  kvReadCounters(key: string): Promise<HashCounters>;
  kvAddToSet(key: string, member: string, ttlMs: number): Promise<number>;
  kvIncrementEachBelow(
    numberOfKeys: number,
    ...keysAndArgs: string[]
  ): Promise<[counted: number, counters: Array<[number, number]>]>;
  kvWriteInOrder(numberOfKeys: number, ...keysAndArgs: string[]): Promise<number[]>;
  kvWriteInOrderBelow(
    numberOfKeys: number,
    ...keysAndArgs: Argument[]
  ): Promise<[counter: [number, number], made: number[] | null]>;
  kvGetEachNaming(
    numberOfKeys: number,
    ...keysAndArgs: Argument[]
  ): Promise<[values: Array<string | null>, named: string | null]>;
};

const eventsOfWrite = (write: Write): readonly string[] => ("events" in write && write.events) || [];

/** The keys of kvWriteInOrder's writes: each write's, then the outbox when one appends events. */
function writtenKeys(writes: readonly Write[]): string[] {
  const appends = writes.some((write) => eventsOfWrite(write).length > 0);
  return [...writes.map(({ key }) => key), ...(appends ? [outboxKey] : [])];
}

/** A write as kvWriteInOrder reads it. */
function scriptWrite(write: Write) {
  const events = eventsOfWrite(write).length > 0 ? { e: eventsOfWrite(write) } : {};
  switch (write.op) {
    case "set":
      return { o: write.op, v: write.value, t: write.ttlMs, ...events };
    case "compareAndSet": {
      const guards = write.guards === undefined ? {} : { g: write.guards };
      return write.next === null
        ? { o: write.op, x: write.expected, d: true, ...guards, ...events }
        : { o: write.op, x: write.expected, v: write.next, t: write.ttlMs, ...guards, ...events };
    }
    case "delete":
      return { o: write.op, ...events };
    case "exchange":
      return { o: write.op, v: write.value, t: write.ttlMs };
    case "addToSet":
      return { o: write.op, v: write.member, t: write.ttlMs };
    case "removeFromSet":
      return { o: write.op, v: write.member };
  }
}

export interface RedisConnectionOptions {
  /** Every key of the store starts with this, so that services sharing a Redis never meet. */
  keyPrefix: string;
  /** Milliseconds a command may take before it fails. */
  commandTimeoutMs?: number;
}

export type RedisClient = Redis | Cluster;

/**
 * Counts every command the client sends, pipelined or not (docs/performance.md, "Operations per
 * request"). A Cluster's pipelines go through its nodes' clients, which this does not see.
 */
function countCommands(client: RedisClient): void {
  const send = client.sendCommand.bind(client) as (...args: unknown[]) => unknown;
  client.sendCommand = ((...args: unknown[]) => {
    const [command] = args as [{ name: string }];
    metrics.redisCommands.inc({ command: command.name });
    return send(...args);
  }) as typeof client.sendCommand;
}

/**
 * A client of a standalone Redis, a Redis Cluster or a Sentinel-watched master, not connected yet.
 * Once `connected()` has been called it reconnects by itself after a drop; before that, a failed
 * connection ends it, and whoever connects it decides whether to try again.
 */
function redisClient(
  target: RedisTarget,
  options: RedisConnectionOptions,
): { client: RedisClient; connected(): void } {
  const common = {
    lazyConnect: true,
    // Fail fast while Redis is away instead of queueing: the caller answers service.unavailable.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    // Commands issued in the same tick go out in one write.
    enableAutoPipelining: true,
  };
  let answered = false;
  const retryStrategy = (attempt: number) => (answered ? Math.min(attempt * 200, 2_000) : null);
  const client =
    target.kind === "cluster"
      ? new Cluster(target.nodes, {
          keyPrefix: options.keyPrefix,
          lazyConnect: true,
          enableOfflineQueue: false,
          enableAutoPipelining: true,
          clusterRetryStrategy: retryStrategy,
          redisOptions: { ...common, username: target.username, password: target.password },
        })
      : target.kind === "sentinel"
        ? new Redis({
            ...common,
            keyPrefix: options.keyPrefix,
            sentinels: target.sentinels,
            name: target.name,
            username: target.username,
            password: target.password,
            retryStrategy,
          })
        : new Redis(target.url, {
            ...common,
            keyPrefix: options.keyPrefix,
            username: target.username,
            password: target.password,
            retryStrategy,
          });
  client.on("error", () => {
    // Connection errors surface on the commands that fail meanwhile, and on connecting.
  });
  countCommands(client);
  return {
    client,
    connected: () => {
      answered = true;
    },
  };
}

/** Connects to a standalone Redis, a Redis Cluster or a Sentinel-watched master; fails when none answers. */
export async function connectRedis(
  target: RedisTarget,
  options: RedisConnectionOptions,
): Promise<RedisClient> {
  const { client, connected } = redisClient(target, options);
  await client.connect();
  connected();
  return client;
}

export interface RedisStartOptions extends RedisConnectionOptions {
  retry: ConnectRetry;
  logger: Logger;
}

/** A Redis client that may still be connecting. */
export interface OpenedRedis {
  client: RedisClient;
  /** Resolves once Redis has answered a PING; until then its commands fail at once. */
  ready: Promise<void>;
  /** Stops connecting, and closes the connection. */
  close(): Promise<void>;
}

/**
 * A client of the target, connecting in the background until Redis answers a PING, however long
 * that takes (docs/operations.md, "Starting without a store").
 */
export function openRedis(target: RedisTarget, options: RedisStartOptions): OpenedRedis {
  const { client, connected } = redisClient(target, options);
  const stop = new AbortController();
  const ready = connectWithRetry(
    {
      store: describeTarget(target),
      attempt: async () => {
        // connect() fails with "Connection is closed."; the error event says why (ECONNREFUSED...).
        let cause: Error | undefined;
        const onError = (error: Error) => {
          cause ??= error;
        };
        client.on("error", onError);
        try {
          await client.connect();
          await client.ping();
        } catch (error) {
          throw cause ?? error;
        } finally {
          client.off("error", onError);
        }
        connected();
      },
      // A connection that failed has ended already; one still opening (or a Redis that hangs) is cut.
      abandon: () => {
        if (client.status !== "end") client.disconnect();
      },
    },
    options.retry,
    options.logger,
    stop.signal,
  );
  ready.catch(() => {
    // Rejects only when closed before Redis answered: nothing is waiting for it then.
  });
  return {
    client,
    ready,
    close: async () => {
      stop.abort();
      await client.quit().catch(() => client.disconnect());
    },
  };
}

function unavailable(error: unknown): never {
  if (error instanceof AuthError) throw error;
  metrics.storeErrors.inc({ store: "redis" });
  throw new AuthError("service.unavailable", { detail: "redis command failed", cause: error });
}

const eventsOf = (options: WriteEvents | undefined): readonly string[] => options?.events ?? [];

/**
 * A KeyValueStore on Redis (standalone, Sentinel or Cluster: every operation is one key). A write
 * given events appends them to the outbox in the script that makes its change; on Redis Cluster the
 * outbox lives in a slot of its own, which no script on another key may touch, so there the append
 * is a second command once the change is made (docs/decisions.md, "Security events").
 */
export class RedisKeyValueStore implements KeyValueStore {
  readonly #redis: RedisClient;
  readonly #scripts: ScriptClient;

  readonly outbox: KeyValueOutbox = {
    read: async (count) => {
      const entries = await this.#redis.xrange(outboxKey, "-", "+", "COUNT", count).catch(unavailable);
      return entries.map(([position, fields]) => ({ position, payload: fields[1] ?? "" }));
    },
    acknowledge: async (positions) => {
      if (positions.length > 0) await this.#redis.xdel(outboxKey, ...positions).catch(unavailable);
    },
  };

  constructor(redis: RedisClient) {
    this.#redis = redis;
    for (const [name, script] of Object.entries(scripts)) {
      redis.defineCommand(name, script);
    }
    this.#scripts = redis as unknown as ScriptClient;
  }

  /** Runs the write's script, appending the events only when it changed something. */
  async #write<Reply = undefined>(
    name: WriteName,
    key: string,
    args: Argument[],
    options: WriteEvents | undefined,
  ): Promise<{ changed: boolean; reply: Reply }> {
    const events = eventsOf(options);
    if (events.length > 0 && !this.#redis.isCluster) {
      const [changed, reply] = await this.#scripts[appending(name)](key, outboxKey, ...args, ...events).catch(
        unavailable,
      );
      return { changed: changed === 1, reply: reply as Reply };
    }
    const [changed, reply] = await this.#scripts[name](key, ...args).catch(unavailable);
    // Cluster: should the append fail, the change stays made and the caller is told the store failed.
    if (changed === 1 && events.length > 0) {
      await this.#scripts.kvAppend(outboxKey, ...events).catch(unavailable);
    }
    return { changed: changed === 1, reply: reply as Reply };
  }

  async get(key: string): Promise<string | null> {
    return this.#redis.get(key).catch(unavailable);
  }

  async set(key: string, value: string, ttlMs: number, options?: WriteEvents): Promise<void> {
    if (eventsOf(options).length > 0) await this.#write("kvSet", key, [value, ttlMs], options);
    else await this.#redis.set(key, value, "PX", ttlMs).catch(unavailable);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number, options?: WriteEvents): Promise<boolean> {
    if (eventsOf(options).length > 0) {
      return (await this.#write("kvSetIfAbsent", key, [value, ttlMs], options)).changed;
    }
    return (await this.#redis.set(key, value, "PX", ttlMs, "NX").catch(unavailable)) === "OK";
  }

  async take(key: string, options?: WriteEvents): Promise<string | null> {
    if (eventsOf(options).length > 0) {
      return (await this.#write<string | null>("kvTake", key, [], options)).reply;
    }
    return this.#redis.getdel(key).catch(unavailable);
  }

  async delete(key: string, options?: WriteEvents): Promise<boolean> {
    if (eventsOf(options).length > 0) return (await this.#write("kvDelete", key, [], options)).changed;
    return (await this.#redis.del(key).catch(unavailable)) > 0;
  }

  async compareAndSet(
    key: string,
    expected: string,
    next: string | null,
    ttlMs: number,
    options?: WriteEvents,
  ): Promise<boolean> {
    const args = [expected, next ?? "", ttlMs, next === null ? "1" : "0"];
    return (await this.#write("kvCompareAndSet", key, args, options)).changed;
  }

  async increment(key: string, windowMs: number, options?: WriteEvents): Promise<Counter> {
    const { reply } = await this.#write<[number, number]>("kvIncrement", key, [windowMs], options);
    const [count, ttlMs] = reply;
    return { count, ttlMs: Math.max(ttlMs, 0) };
  }

  async incrementBelow(key: string, windowMs: number, ceiling: number, options?: WriteEvents) {
    const { changed, reply } = await this.#write<[number, number]>(
      "kvIncrementBelow",
      key,
      [windowMs, ceiling],
      options,
    );
    const [count, ttlMs] = reply;
    return { counted: changed, count, ttlMs: Math.max(0, ttlMs) };
  }

  async incrementCounters(
    key: string,
    windowMs: number,
    names: readonly string[],
    ceilings: Readonly<Record<string, number>> = {},
    options?: WriteEvents,
  ): Promise<Counters & { counted: boolean }> {
    const counters = JSON.stringify(names.map((name) => [name, ceilings[name] ?? -1]));
    const { changed, reply } = await this.#write<HashCounters>(
      "kvIncrementCounters",
      key,
      [windowMs, counters],
      options,
    );
    return { ...countersOf(reply), counted: changed };
  }

  async incrementEachBelow(counters: readonly BoundedCounter[], then: readonly Write[] = []) {
    if (this.#redis.isCluster) {
      const spent = await this.#incrementOneByOne(counters);
      if (spent.counted) await this.#writeOneByOne(then);
      return spent;
    }
    const windows = JSON.stringify(counters.map(({ windowMs, ceiling }) => [windowMs, ceiling]));
    const keys = [...counters.map(({ key }) => key), ...writtenKeys(then)];
    const [counted, read] = await this.#scripts
      .kvIncrementEachBelow(keys.length, ...keys, windows, JSON.stringify(then.map(scriptWrite)))
      .catch(unavailable);
    return {
      counted: counted === 1,
      counters: read.map(([count, ttlMs]) => ({ count, ttlMs: Math.max(ttlMs, 0) })),
    };
  }

  /** incrementEachBelow key by key: each counted below its ceiling, those before a refusal taken back. */
  async #incrementOneByOne(counters: readonly BoundedCounter[]) {
    const counted: Array<Counter & { key: string }> = [];
    for (const { key, windowMs, ceiling } of counters) {
      const { counted: below, count, ttlMs } = await this.incrementBelow(key, windowMs, ceiling);
      if (!below) {
        const takenBack = await Promise.all(
          counted.map(async (earlier) => ({
            count: await this.decrement(earlier.key),
            ttlMs: earlier.ttlMs,
          })),
        );
        return { counted: false, counters: [...takenBack, { count, ttlMs }] };
      }
      counted.push({ key, count, ttlMs });
    }
    return { counted: true, counters: counted.map(({ count, ttlMs }) => ({ count, ttlMs })) };
  }

  async getEach(keys: readonly string[]): Promise<Array<string | null>> {
    if (keys.length === 0) return [];
    if (this.#redis.isCluster) return Promise.all(keys.map((key) => this.get(key)));
    return this.#redis.mget(...keys).catch(unavailable);
  }

  async getEachNaming(keys: readonly string[], named: KeyNamedByValue) {
    if (this.#redis.isCluster) {
      const values = await this.getEach(keys);
      const key = keyNamedBy(values[named.from] ?? null, named);
      return { values, named: key === undefined ? null : await this.get(key) };
    }
    const parts = named.parts.map((part) => (typeof part === "string" ? [0, part] : [1, part.field]));
    const [values, value] = await this.#scripts
      .kvGetEachNaming(
        keys.length,
        ...keys,
        this.#redis.options.keyPrefix ?? "",
        named.from + 1,
        JSON.stringify(parts),
      )
      .catch(unavailable);
    return { values, named: value };
  }

  async writeInOrder(writes: readonly Write[]): Promise<boolean[]> {
    if (this.#redis.isCluster) return this.#writeOneByOne(writes);
    const keys = writtenKeys(writes);
    const made = await this.#scripts
      .kvWriteInOrder(keys.length, ...keys, JSON.stringify(writes.map(scriptWrite)))
      .catch(unavailable);
    return made.map((changed) => changed === 1);
  }

  async writeInOrderBelow(
    counter: { key: string; ceiling: number },
    writes: readonly Write[],
  ): Promise<{ counter: Counter; made: boolean[] | undefined }> {
    if (this.#redis.isCluster) {
      const read = await this.readCounter(counter.key);
      return {
        counter: read,
        made: read.count < counter.ceiling ? await this.#writeOneByOne(writes) : undefined,
      };
    }
    const keys = [counter.key, ...writtenKeys(writes)];
    const [[count, ttlMs], made] = await this.#scripts
      .kvWriteInOrderBelow(keys.length, ...keys, counter.ceiling, JSON.stringify(writes.map(scriptWrite)))
      .catch(unavailable);
    return {
      counter: { count, ttlMs: Math.max(ttlMs, 0) },
      made: made ? made.map((changed) => changed === 1) : undefined,
    };
  }

  /** writeInOrder write by write, each its single-key operation. */
  async #writeOneByOne(writes: readonly Write[]): Promise<boolean[]> {
    const made: boolean[] = [];
    let skipped = 0;
    for (const write of writes) {
      if (skipped > 0) {
        skipped -= 1;
        made.push(false);
        continue;
      }
      const changed = await this.#writeOne(write);
      made.push(changed);
      if (!changed && write.op === "compareAndSet") {
        if (write.guards === undefined) break;
        skipped = write.guards;
      }
    }
    return made;
  }

  async #writeOne(write: Write): Promise<boolean> {
    switch (write.op) {
      case "set":
        await this.set(write.key, write.value, write.ttlMs, write);
        return true;
      case "compareAndSet":
        return this.compareAndSet(write.key, write.expected, write.next, write.ttlMs, write);
      case "delete":
        return this.delete(write.key, write);
      case "exchange":
        return (await this.exchange(write.key, write.value, write.ttlMs)) !== null;
      case "addToSet":
        await this.addToSet(write.key, write.member, write.ttlMs);
        return true;
      case "removeFromSet":
        return (await this.#redis.srem(write.key, write.member).catch(unavailable)) > 0;
    }
  }

  async exchange(key: string, value: string, ttlMs: number): Promise<string | null> {
    return this.#redis.set(key, value, "PX", ttlMs, "GET").catch(unavailable);
  }

  async readCounters(key: string): Promise<Counters> {
    return countersOf(await this.#scripts.kvReadCounters(key).catch(unavailable));
  }

  async decrement(key: string, options?: WriteEvents): Promise<number> {
    return (await this.#write<number>("kvDecrement", key, [], options)).reply;
  }

  async readCounter(key: string): Promise<Counter> {
    const [count, ttlMs] = await this.#scripts.kvReadCounter(key).catch(unavailable);
    return { count, ttlMs: Math.max(ttlMs, 0) };
  }

  async addToSet(key: string, member: string, ttlMs: number): Promise<void> {
    await this.#scripts.kvAddToSet(key, member, ttlMs).catch(unavailable);
  }

  async removeFromSet(key: string, member: string): Promise<void> {
    await this.#writeOne({ op: "removeFromSet", key, member });
  }

  async setMembers(key: string): Promise<string[]> {
    return this.#redis.smembers(key).catch(unavailable);
  }

  async ping(): Promise<void> {
    await this.#redis.ping().catch(unavailable);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
