import { AuthError } from "@auth/errors";
import { metrics } from "@auth/telemetry";
import { Cluster, Redis } from "ioredis";
import type { Counter, KeyValueStore } from "./store.js";
import type { RedisTarget } from "./target.js";

const scripts = {
  kvCompareAndSet: {
    numberOfKeys: 1,
    // ARGV: expected, next, ttlMs, "1" when next means delete
    lua: `
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
      if ARGV[4] == '1' then redis.call('DEL', KEYS[1])
      else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
      return 1`,
  },
  kvIncrement: {
    numberOfKeys: 1,
    lua: `
      local count = redis.call('INCR', KEYS[1])
      if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
      return {count, redis.call('PTTL', KEYS[1])}`,
  },
  kvIncrementBelow: {
    numberOfKeys: 1,
    // ARGV: windowMs, ceiling
    lua: `
      local count = tonumber(redis.call('GET', KEYS[1]) or '0')
      if count >= tonumber(ARGV[2]) then return {0, count, redis.call('PTTL', KEYS[1])} end
      count = redis.call('INCR', KEYS[1])
      if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
      return {1, count, redis.call('PTTL', KEYS[1])}`,
  },
  kvDecrement: {
    numberOfKeys: 1,
    lua: `
      local count = tonumber(redis.call('GET', KEYS[1]) or '0')
      if count <= 0 then return 0 end
      return redis.call('DECR', KEYS[1])`,
  },
  kvReadCounter: {
    numberOfKeys: 1,
    lua: `
      local count = redis.call('GET', KEYS[1])
      if not count then return {0, 0} end
      return {tonumber(count), redis.call('PTTL', KEYS[1])}`,
  },
  kvAddToSet: {
    numberOfKeys: 1,
    lua: `
      redis.call('SADD', KEYS[1], ARGV[1])
      if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
      return 1`,
  },
} as const;

type ScriptClient = {
  kvCompareAndSet(
    key: string,
    expected: string,
    next: string,
    ttlMs: number,
    remove: string,
  ): Promise<number>;
  kvIncrement(key: string, windowMs: number): Promise<[number, number]>;
  kvIncrementBelow(key: string, windowMs: number, ceiling: number): Promise<[number, number, number]>;
  kvDecrement(key: string): Promise<number>;
  kvReadCounter(key: string): Promise<[number, number]>;
  kvAddToSet(key: string, member: string, ttlMs: number): Promise<number>;
};

export interface RedisConnectionOptions {
  /** Every key of the store starts with this, so that services sharing a Redis never meet. */
  keyPrefix: string;
  /** Milliseconds a command may take before it fails. */
  commandTimeoutMs?: number;
}

/** Connects to a standalone Redis, a Redis Cluster or a Sentinel-watched master; fails when none answers. */
export async function connectRedis(
  target: RedisTarget,
  options: RedisConnectionOptions,
): Promise<Redis | Cluster> {
  const common = {
    lazyConnect: true,
    // Fail fast while Redis is away instead of queueing: the caller answers service.unavailable.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    // Commands issued in the same tick go out in one write.
    enableAutoPipelining: true,
  };
  const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2_000);
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
    // Connection errors are retried by ioredis and surface on the commands that fail meanwhile.
  });
  await client.connect();
  return client;
}

function unavailable(error: unknown): never {
  if (error instanceof AuthError) throw error;
  metrics.storeErrors.inc({ store: "redis" });
  throw new AuthError("service.unavailable", { detail: "redis command failed", cause: error });
}

/** A KeyValueStore on Redis (standalone, Sentinel or Cluster: every operation is one key). */
export class RedisKeyValueStore implements KeyValueStore {
  readonly #redis: Redis | Cluster;
  readonly #scripts: ScriptClient;

  constructor(redis: Redis | Cluster) {
    this.#redis = redis;
    for (const [name, script] of Object.entries(scripts)) {
      redis.defineCommand(name, script);
    }
    this.#scripts = redis as unknown as ScriptClient;
  }

  async get(key: string): Promise<string | null> {
    return this.#redis.get(key).catch(unavailable);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#redis.set(key, value, "PX", ttlMs).catch(unavailable);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.#redis.set(key, value, "PX", ttlMs, "NX").catch(unavailable)) === "OK";
  }

  async take(key: string): Promise<string | null> {
    return this.#redis.getdel(key).catch(unavailable);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.#redis.del(key).catch(unavailable)) > 0;
  }

  async compareAndSet(key: string, expected: string, next: string | null, ttlMs: number): Promise<boolean> {
    const result = await this.#scripts
      .kvCompareAndSet(key, expected, next ?? "", ttlMs, next === null ? "1" : "0")
      .catch(unavailable);
    return result === 1;
  }

  async increment(key: string, windowMs: number): Promise<Counter> {
    const [count, ttlMs] = await this.#scripts.kvIncrement(key, windowMs).catch(unavailable);
    return { count, ttlMs: Math.max(ttlMs, 0) };
  }

  async incrementBelow(key: string, windowMs: number, ceiling: number) {
    const [counted, count, ttlMs] = await this.#scripts
      .kvIncrementBelow(key, windowMs, ceiling)
      .catch(unavailable);
    return { counted: counted === 1, count, ttlMs: Math.max(0, ttlMs) };
  }

  async decrement(key: string): Promise<number> {
    return this.#scripts.kvDecrement(key).catch(unavailable);
  }

  async readCounter(key: string): Promise<Counter> {
    const [count, ttlMs] = await this.#scripts.kvReadCounter(key).catch(unavailable);
    return { count, ttlMs: Math.max(ttlMs, 0) };
  }

  async addToSet(key: string, member: string, ttlMs: number): Promise<void> {
    await this.#scripts.kvAddToSet(key, member, ttlMs).catch(unavailable);
  }

  async removeFromSet(key: string, member: string): Promise<void> {
    await this.#redis.srem(key, member).catch(unavailable);
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
