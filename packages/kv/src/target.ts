import { env, type Logger } from "@auth/runtime";
import { z } from "zod";
import type { RedisStartOptions } from "./redis.js";

/** The service's own ACL user (docs/operations.md, "Least privilege in the stores"); the default user when absent. */
interface RedisCredentials {
  username?: string;
  password?: string;
}

export type RedisTarget = RedisCredentials &
  (
    | { kind: "standalone"; url: string }
    | { kind: "cluster"; nodes: Array<{ host: string; port: number }> }
    | { kind: "sentinel"; sentinels: Array<{ host: string; port: number }>; name: string }
  );

const hostPorts = z
  .string()
  .regex(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, "expected host:port[,host:port...]")
  .transform((list) =>
    list.split(",").map((entry) => {
      const [host = "", port = "0"] = entry.split(":");
      return { host, port: Number(port) };
    }),
  );

/** The Redis settings every Redis-backed service reads; none of them set means the in-process store. */
export const redisEnvironment = {
  /** A standalone Redis (redis:// or rediss://). */
  REDIS_URL: env.url(["redis:", "rediss:"]).optional(),
  /** Redis Cluster: some of its nodes. */
  REDIS_CLUSTER_NODES: hostPorts.optional(),
  /** Redis Sentinel: the sentinels and the name of the master they watch. */
  REDIS_SENTINELS: hostPorts.optional(),
  REDIS_SENTINEL_MASTER: z.string().min(1).optional(),
  /** The service's own ACL user, limited to its key prefix. */
  REDIS_USERNAME: z.string().min(1).optional(),
  /** Its password (a REDIS_URL that carries credentials takes precedence). */
  REDIS_PASSWORD: z.string().optional(),
  /** Milliseconds a command may take before it fails (the store is then unavailable to the request). */
  REDIS_COMMAND_TIMEOUT_MS: env.positiveInt(1_000),
  /** Milliseconds one attempt to reach Redis at start-up (connect, PING) may take before it is retried. */
  REDIS_CONNECT_TIMEOUT_MS: env.positiveInt(3_000),
  /** The longest wait between two of those attempts (doubling from 200 ms, full jitter). */
  REDIS_RETRY_MAX_DELAY_MS: env.positiveInt(5_000),
};

type RedisSettings = {
  REDIS_URL?: string;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }>;
  REDIS_SENTINELS?: Array<{ host: string; port: number }>;
  REDIS_SENTINEL_MASTER?: string;
  REDIS_USERNAME?: string;
  REDIS_PASSWORD?: string;
};

/** Refuses settings that name more than one kind of Redis, or a Sentinel setup without its master. */
export function checkRedisSettings(settings: RedisSettings, context: z.RefinementCtx): void {
  const kinds = [settings.REDIS_URL, settings.REDIS_CLUSTER_NODES, settings.REDIS_SENTINELS].filter(
    Boolean,
  ).length;
  if (kinds > 1) {
    context.addIssue({
      code: "custom",
      path: ["REDIS_URL"],
      message: "set only one of REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS",
    });
  }
  if (settings.REDIS_SENTINELS && !settings.REDIS_SENTINEL_MASTER) {
    context.addIssue({
      code: "custom",
      path: ["REDIS_SENTINEL_MASTER"],
      message: "is required with REDIS_SENTINELS",
    });
  }
}

/** Which Redis checked settings name; none means the in-process store. */
export function redisTargetOf(settings: RedisSettings): RedisTarget | undefined {
  const credentials = { username: settings.REDIS_USERNAME, password: settings.REDIS_PASSWORD };
  if (settings.REDIS_URL) return { kind: "standalone", url: settings.REDIS_URL, ...credentials };
  if (settings.REDIS_CLUSTER_NODES)
    return { kind: "cluster", nodes: settings.REDIS_CLUSTER_NODES, ...credentials };
  if (settings.REDIS_SENTINELS && settings.REDIS_SENTINEL_MASTER) {
    return {
      kind: "sentinel",
      sentinels: settings.REDIS_SENTINELS,
      name: settings.REDIS_SENTINEL_MASTER,
      ...credentials,
    };
  }
  return undefined;
}

/** How a process reaches its Redis, from its checked settings. */
export function redisOptionsOf(
  settings: {
    REDIS_KEY_PREFIX: string;
    REDIS_COMMAND_TIMEOUT_MS: number;
    REDIS_CONNECT_TIMEOUT_MS: number;
    REDIS_RETRY_MAX_DELAY_MS: number;
  },
  logger: Logger,
): RedisStartOptions {
  return {
    keyPrefix: settings.REDIS_KEY_PREFIX,
    commandTimeoutMs: settings.REDIS_COMMAND_TIMEOUT_MS,
    retry: {
      attemptTimeoutMs: settings.REDIS_CONNECT_TIMEOUT_MS,
      maxDelayMs: settings.REDIS_RETRY_MAX_DELAY_MS,
    },
    logger,
  };
}

export function describeTarget(target: RedisTarget | undefined): string {
  return target ? `redis ${target.kind}` : "in-process";
}
