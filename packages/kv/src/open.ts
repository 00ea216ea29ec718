import { MemoryKeyValueStore } from "./memory.js";
import { connectRedis, RedisKeyValueStore } from "./redis.js";
import type { KeyValueStore } from "./store.js";

/** Redis when a URL is configured, else the in-process store of the embedded default. */
export async function openKeyValueStore(
  redisUrl: string | undefined,
  keyPrefix: string,
): Promise<KeyValueStore> {
  if (!redisUrl) return new MemoryKeyValueStore();
  return new RedisKeyValueStore(await connectRedis(redisUrl, { keyPrefix }));
}
