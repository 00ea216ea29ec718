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

/**
 * Operations of the whole suite so far: gRPC calls as served (so a call from one service to another
 * counts once, as does the benchmark's own), Redis commands and PostgreSQL statements.
 */
export async function countOperations(metricsUrls: string[]): Promise<Operations> {
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

/** The operations between two counts, per answered request. */
export function perRequest(before: Operations, after: Operations, requests: number): Operations {
  const count = Math.max(1, requests);
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
