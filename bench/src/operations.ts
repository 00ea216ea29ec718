/** The counters of store and gRPC operations every process of the suite serves on /metrics. */
const counters = {
  grpc: "auth_grpc_server_calls_total",
  redis: "auth_redis_commands_total",
  postgres: "auth_postgres_queries_total",
} as const;

export type Operations = Record<keyof typeof counters, number>;

/** The sum of a counter's samples, all labels together, in a Prometheus text exposition. */
function total(exposition: string, name: string): number {
  let sum = 0;
  for (const line of exposition.split("\n")) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

/**
 * Operations of the whole suite so far: gRPC calls as served (so a call from one service to another
 * counts once, as does the benchmark's own), Redis commands and PostgreSQL statements.
 */
export async function countOperations(metricsUrls: string[]): Promise<Operations> {
  const expositions = await Promise.all(metricsUrls.map(async (url) => (await fetch(url)).text()));
  const sumOf = (name: string) => expositions.reduce((sum, text) => sum + total(text, name), 0);
  return { grpc: sumOf(counters.grpc), redis: sumOf(counters.redis), postgres: sumOf(counters.postgres) };
}

/** The operations between two counts, per answered request. */
export function perRequest(before: Operations, after: Operations, requests: number): Operations {
  const per = (key: keyof Operations) => (after[key] - before[key]) / Math.max(1, requests);
  return { grpc: per("grpc"), redis: per("redis"), postgres: per("postgres") };
}
