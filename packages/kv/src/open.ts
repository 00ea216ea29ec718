import { MemoryKeyValueStore } from "./memory.js";
import { openRedis, RedisKeyValueStore, type RedisStartOptions } from "./redis.js";
import type { KeyValueStore } from "./store.js";
import type { RedisTarget } from "./target.js";

/** A service's store, which may still be connecting. */
export interface OpenedKeyValueStore {
  store: KeyValueStore;
  /** Resolves once the store answers (at once in the process); until then its operations fail. */
  ready: Promise<void>;
  /** Stops connecting, and closes the store. */
  close(): Promise<void>;
}

/**
 * Redis when one is configured, connecting in the background until it answers (redis.ts
 * `openRedis`); else the in-process store of the embedded default.
 */
export function openKeyValueStore(
  target: RedisTarget | undefined,
  options: RedisStartOptions,
): OpenedKeyValueStore {
  if (!target) {
    const store = new MemoryKeyValueStore();
    return { store, ready: Promise.resolve(), close: () => store.close() };
  }
  const redis = openRedis(target, options);
  return { store: new RedisKeyValueStore(redis.client), ready: redis.ready, close: redis.close };
}
