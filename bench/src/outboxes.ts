import { connectRedis, type RedisClient, RedisKeyValueStore } from "@auth/kv";
import { type RunningSuite, serviceNames } from "@auth/suite";
import pg from "pg";

/** The security events the suite's services have recorded and their relays not yet published. */
export interface Outboxes {
  /** Where each service keeps its outbox. */
  kinds: Record<string, "redis" | "postgres">;
  /** Resolves once every outbox is empty; fails after `withinMs`. */
  untilEmpty(withinMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The outboxes of the suite's services (docs/decisions.md, "Security events"), each found from the
 * service process's own settings: the key-value store's of those on Redis (REDIS_URL and
 * REDIS_KEY_PREFIX), the `event_outbox` table of those on PostgreSQL (DATABASE_URL).
 */
export async function openOutboxes(suite: RunningSuite): Promise<Outboxes> {
  const redisClients: RedisClient[] = [];
  const databases: pg.Client[] = [];
  const emptyChecks: Array<() => Promise<boolean>> = [];
  const kinds: Outboxes["kinds"] = {};
  try {
    for (const name of serviceNames) {
      const { REDIS_URL, REDIS_KEY_PREFIX, DATABASE_URL } = suite.children[name].options.env;
      if (REDIS_URL) {
        const client = await connectRedis(
          { kind: "standalone", url: REDIS_URL },
          { keyPrefix: REDIS_KEY_PREFIX ?? "" },
        );
        redisClients.push(client);
        kinds[name] = "redis";
        const store = new RedisKeyValueStore(client);
        emptyChecks.push(async () => (await store.outbox.read(1)).length === 0);
      }
      if (DATABASE_URL) {
        const database = new pg.Client({ connectionString: DATABASE_URL });
        await database.connect();
        databases.push(database);
        kinds[name] = "postgres";
        emptyChecks.push(
          async () => (await database.query("SELECT 1 FROM event_outbox LIMIT 1")).rowCount === 0,
        );
      }
    }
  } catch (error) {
    await closeAll(redisClients, databases);
    throw error;
  }
  return {
    kinds,
    async untilEmpty(withinMs = 120_000) {
      const deadline = Date.now() + withinMs;
      while (!(await Promise.all(emptyChecks.map((check) => check()))).every(Boolean)) {
        if (Date.now() > deadline) throw new Error(`the outboxes were not empty within ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    close: () => closeAll(redisClients, databases),
  };
}

async function closeAll(redisClients: RedisClient[], databases: pg.Client[]): Promise<void> {
  await Promise.all([
    ...redisClients.map((client) => client.quit()),
    ...databases.map((database) => database.end()),
  ]);
}
