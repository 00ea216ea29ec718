/** The counters of store and gRPC operations every process of the suite serves on /metrics. */
const counters = {
  grpc: "auth_grpc_server_calls_total",
  redis: "auth_redis_commands_total",
  postgres: "auth_postgres_queries_total",
} as const;

export type Operations = Record<keyof typeof counters, number> & {
  /** gRPC calls by method, all processes together. */
  grpcByMethod: Record<string, number>;
};

/** The sum of a counter's samples, all labels together, in a Prometheus text exposition. */
function total(exposition: string, name: string): number {
  let sum = 0;
  for (const line of exposition.split("\n")) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

/** gRPC calls served by method, whatever their outcome. */
function callsByMethod(exposition: string, into: Record<string, number>): void {
  for (const line of exposition.split("\n")) {
    if (!line.startsWith(`${counters.grpc}{`)) continue;
    const method = /method="([^"]*)"/.exec(line)?.[1] ?? "";
    into[method] = (into[method] ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1));
  }
}

async function readCounts(metricsUrls: string[]): Promise<Operations> {
  const expositions = await Promise.all(metricsUrls.map(async (url) => (await fetch(url)).text()));
  const sumOf = (name: string) => expositions.reduce((sum, text) => sum + total(text, name), 0);
  const grpcByMethod: Record<string, number> = {};
  for (const text of expositions) callsByMethod(text, grpcByMethod);
  return {
    grpc: sumOf(counters.grpc),
    redis: sumOf(counters.redis),
    postgres: sumOf(counters.postgres),
    grpcByMethod,
  };
}

/**
 * Operations of the whole suite once it is idle: gRPC calls as served (so a call from one service to
 * another counts once, as does the benchmark's own), Redis commands and PostgreSQL statements. The requests a load generator left in flight as it stopped are still served
 * after it: the counts are read again until two reads a second apart agree (or 30 s have passed).
 */
export async function countOperations(metricsUrls: string[]): Promise<Operations> {
  let last = await readCounts(metricsUrls);
  for (let tries = 0; tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const next = await readCounts(metricsUrls);
    if (next.grpc === last.grpc && next.redis === last.redis && next.postgres === last.postgres) return next;
    last = next;
  }
  return last;
}

/** The operations between two counts, per request sent (answered, or in flight as the load stopped). */
export function perRequest(before: Operations, after: Operations, sent: number): Operations {
  const count = Math.max(1, sent);
  const per = (key: "grpc" | "redis" | "postgres") => (after[key] - before[key]) / count;
  const grpcByMethod = Object.fromEntries(
    Object.entries(after.grpcByMethod)
      .map(([method, calls]): [string, number] => [
        method,
        (calls - (before.grpcByMethod[method] ?? 0)) / count,
      ])
      .filter(([, calls]) => calls > 0)
      .sort(([, a], [, b]) => b - a),
  );
  return { grpc: per("grpc"), redis: per("redis"), postgres: per("postgres"), grpcByMethod };
}
