import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { MemoryKeyValueStore } from "./memory.js";
import { connectRedis, RedisKeyValueStore } from "./redis.js";
import type { Clock, KeyValueStore } from "./store.js";

export interface KeyValueKind {
  name: string;
  /** Opens an empty store; its close() also removes every key it wrote. */
  open(clock?: Clock): Promise<KeyValueStore>;
}

/** Removes every key that starts with the prefix (keys a test run wrote). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  const stream = redis.scanStream({ match: `${prefix}*`, count: 500 });
  for await (const keys of stream as AsyncIterable<string[]>) {
    if (keys.length > 0) await redis.unlink(...keys);
  }
  await redis.quit();
}

/**
 * The store kinds a contract suite runs against: the in-process store always, and Redis when
 * TEST_REDIS_URL is set (as CI sets it). The clock is honoured by the in-process store only; Redis
 * keeps its own time.
 */
export function keyValueKinds(): KeyValueKind[] {
  const kinds: KeyValueKind[] = [
    { name: "in-process", open: async (clock) => new MemoryKeyValueStore(clock) },
  ];
  const url = process.env.TEST_REDIS_URL;
  if (url) {
    kinds.push({
      name: "redis",
      open: async () => {
        const keyPrefix = `test:${randomUUID()}:`;
        const store = new RedisKeyValueStore(await connectRedis(url, { keyPrefix }));
        const close = store.close.bind(store);
        store.close = async () => {
          await close();
          await deleteKeys(url, keyPrefix);
        };
        return store;
      },
    });
  }
  return kinds;
}
