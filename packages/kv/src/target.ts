import { env } from "@auth/runtime";
import { z } from "zod";

export type RedisTarget =
  | { kind: "standalone"; url: string }
  | { kind: "cluster"; nodes: Array<{ host: string; port: number }>; password?: string }
  | { kind: "sentinel"; sentinels: Array<{ host: string; port: number }>; name: string; password?: string };

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
  /** For Cluster and Sentinel (a standalone Redis takes it in its URL). */
  REDIS_PASSWORD: z.string().optional(),
};

type RedisSettings = {
  REDIS_URL?: string;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }>;
  REDIS_SENTINELS?: Array<{ host: string; port: number }>;
  REDIS_SENTINEL_MASTER?: string;
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
  const password = settings.REDIS_PASSWORD;
  if (settings.REDIS_URL) return { kind: "standalone", url: settings.REDIS_URL };
  if (settings.REDIS_CLUSTER_NODES) return { kind: "cluster", nodes: settings.REDIS_CLUSTER_NODES, password };
  if (settings.REDIS_SENTINELS && settings.REDIS_SENTINEL_MASTER) {
    return {
      kind: "sentinel",
      sentinels: settings.REDIS_SENTINELS,
      name: settings.REDIS_SENTINEL_MASTER,
      password,
    };
  }
  return undefined;
}

export function describeTarget(target: RedisTarget | undefined): string {
  return target ? `redis ${target.kind}` : "in-process";
}
