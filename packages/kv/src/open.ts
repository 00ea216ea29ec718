import { MemoryKeyValueStore } from "./memory.js";
import { connectRedis, type RedisConnectionOptions, RedisKeyValueStore } from "./redis.js";
import type { KeyValueStore } from "./store.js";
import type { RedisTarget } from "./target.js";

/** Redis when one is configured, else the in-process store of the embedded default. */
export async function openKeyValueStore(
  target: RedisTarget | undefined,
  options: RedisConnectionOptions,
): Promise<KeyValueStore> {
  if (!target) return new MemoryKeyValueStore();
  return new RedisKeyValueStore(await connectRedis(target, options));
}
