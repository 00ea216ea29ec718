/** The counters of store and gRPC operations every process of the suite serves on /metrics. */
const counters = {
  grpc: "auth_grpc_server_calls_total",
  redis: "auth_redis_commands_total",
  postgres: "auth_postgres_queries_total",
} as const;

export type Operations = Record<keyof typeof counters, number> & {
  /** gRPC calls by method, all processes together. */
  grpcByMethod: Record<string, number>;
  /** Redis commands by command (a Lua script is `evalsha`), all processes together. */
  redisByCommand: Record<string, number>;
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

/** A counter's samples summed by the value of one of its labels. */
function byLabel(exposition: string, name: string, label: string, into: Record<string, number>): void {
  const pattern = new RegExp(`${label}="([^"]*)"`);
  for (const line of exposition.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const value = pattern.exec(line)?.[1] ?? "";
    into[value] = (into[value] ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1));
  }
}

/** The operations every process has counted so far. */
async function readCounts(metricsUrls: string[]): Promise<Operations> {
  const expositions = await Promise.all(metricsUrls.map(async (url) => (await fetch(url)).text()));
  const sumOf = (name: string) => expositions.reduce((sum, text) => sum + total(text, name), 0);
  const grpcByMethod: Record<string, number> = {};
  const redisByCommand: Record<string, number> = {};
  for (const text of expositions) {
    byLabel(text, counters.grpc, "method", grpcByMethod);
    byLabel(text, counters.redis, "command", redisByCommand);
  }
  return {
    grpc: sumOf(counters.grpc),
    redis: sumOf(counters.redis),
    postgres: sumOf(counters.postgres),
    grpcByMethod,
    redisByCommand,
  };
}

/**
 * The gRPC calls but the gateway's read of the companies with disclaimers, which it makes every
 * second whatever the load (docs/decisions.md, "A company without disclaimers").
 */
const requestCalls = (counts: Operations) =>
  counts.grpc - (counts.grpcByMethod.listCompaniesWithDisclaimers ?? 0);

/**
 * Operations of the whole suite once it is idle: gRPC calls as served (so a call from one service to
 * another counts once, as does the benchmark's own), Redis commands and PostgreSQL statements. The
 * requests a load generator left in flight as it stopped are still served after it: the counts are
 * read again until two reads a second apart agree on the gRPC calls made for requests (or 30 s have
 * passed). The
 * stores' counts never stand still: each service's relay reads its outbox every 200 ms, idle or not
 * (docs/decisions.md, "Security events").
 */
export async function countOperations(metricsUrls: string[]): Promise<Operations> {
  let last = await readCounts(metricsUrls);
  for (let tries = 0; tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const next = await readCounts(metricsUrls);
    if (requestCalls(next) === requestCalls(last)) return next;
    last = next;
  }
  return last;
}

/** Each count's growth between two reads, divided by `count`, largest first; what did not grow is left out. */
function growthOf(before: Record<string, number>, after: Record<string, number>, count: number) {
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, value]): [string, number] => [key, (value - (before[key] ?? 0)) / count])
      .filter(([, grown]) => grown > 0)
      .sort(([, a], [, b]) => b - a),
  );
}

/** The operations between two counts, per request sent (answered, or in flight as the load stopped). */
export function perRequest(before: Operations, after: Operations, sent: number): Operations {
  const count = Math.max(1, sent);
  const per = (key: "grpc" | "redis" | "postgres") => (after[key] - before[key]) / count;
  return {
    grpc: per("grpc"),
    redis: per("redis"),
    postgres: per("postgres"),
    grpcByMethod: growthOf(before.grpcByMethod, after.grpcByMethod, count),
    redisByCommand: growthOf(before.redisByCommand, after.redisByCommand, count),
  };
}
