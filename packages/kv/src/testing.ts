import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { type RunningCluster, startRedisCluster } from "./cluster.js";
import { MemoryKeyValueStore } from "./memory.js";
import { connectRedis, RedisKeyValueStore } from "./redis.js";
import type { Clock, KeyValueStore } from "./store.js";
import type { RedisTarget } from "./target.js";

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

function onPath(command: string): boolean {
  try {
    execFileSync("which", [command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let cluster: Promise<RunningCluster> | undefined;

/** One Redis Cluster per test process, started when a suite first asks for it and stopped when the process ends. */
function sharedCluster(): Promise<RunningCluster> {
  cluster ??= startRedisCluster().then((running) => {
    process.once("exit", () => running.stop());
    return running;
  });
  return cluster;
}

/** A store on a fresh key prefix; its close() also removes every key it wrote. */
async function openRedisStore(
  target: RedisTarget,
  cleanUp: (prefix: string) => Promise<void>,
): Promise<KeyValueStore> {
  const keyPrefix = `test:${randomUUID()}:`;
  const store = new RedisKeyValueStore(await connectRedis(target, { keyPrefix }));
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await cleanUp(keyPrefix);
  };
  return store;
}

/**
 * The store kinds a contract suite runs against: the in-process store always; Redis when
 * TEST_REDIS_URL is set (as CI sets it); and then also a three-master Redis Cluster started on
 * loopback, when redis-server is on the PATH. The clock is honoured by the in-process store only;
 * Redis keeps its own time.
 */
export function keyValueKinds(): KeyValueKind[] {
  const kinds: KeyValueKind[] = [
    { name: "in-process", open: async (clock) => new MemoryKeyValueStore(clock) },
  ];
  const url = process.env.TEST_REDIS_URL;
  if (url) {
    kinds.push({
      name: "redis",
      open: () => openRedisStore({ kind: "standalone", url }, (prefix) => deleteKeys(url, prefix)),
    });
    if (onPath("redis-server") && onPath("redis-cli")) {
      kinds.push({
        name: "Redis Cluster",
        // Keys of a test are spread over the masters and expire; the cluster goes with the process.
        open: async () =>
          openRedisStore({ kind: "cluster", nodes: (await sharedCluster()).nodes }, async () => {}),
      });
    }
  }
  return kinds;
}
