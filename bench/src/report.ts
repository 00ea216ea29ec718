import type { AgainstReport } from "./against.js";
import type { EventsCost } from "./events-cost.js";
import type { LoadResult } from "./http-load.js";
import type { Operations } from "./operations.js";
import type { ProcessUsage } from "./processes.js";

export interface Scenario extends LoadResult, ProcessUsage {
  name: string;
  /** gRPC calls, Redis commands and PostgreSQL statements per request, as the processes counted them. */
  operations: Operations;
}

/** The operations per request of a scenario. */
export function describeOperations({ operations }: Scenario): string {
  const methods = Object.entries(operations.grpcByMethod)
    .map(([method, calls]) => `${method} ${calls.toFixed(2)}`)
    .join(", ");
  return `per request: gRPC ${operations.grpc.toFixed(2)} (${methods}), Redis ${operations.redis.toFixed(2)}, PostgreSQL ${operations.postgres.toFixed(2)}`;
}

/** CPU milliseconds per request of each process, largest first: where a scenario's time goes. */
export function describeCpu(scenario: Scenario): string {
  const answered = Math.max(1, scenario.requests - scenario.errors - scenario.failures);
  return Object.entries(scenario.cpuSeconds)
    .sort(([, a], [, b]) => b - a)
    .map(([name, seconds]) => `${name} ${((seconds * 1000) / answered).toFixed(2)}`)
    .join(", ");
}

export interface Report {
  date: string;
  durationSeconds: number;
  connections: number;
  limits: {
    hashMs: number;
    cores: number;
    loginsPerSecond: number;
    bareExpressRps: number;
    /** CPU microseconds, client and server together, of a small gRPC call and of a new channel's first call. */
    grpcCpuUs: {
      callUs: { plaintext: number; mtls: number };
      connectUs: { plaintext: number; mtls: number };
    };
  };
  scenarios: Scenario[];
  /** What the security events cost a password login (BENCH_ONLY=security). */
  events?: EventsCost;
  /** The product against the skeleton, better-auth and itself in plain text (BENCH_ONLY=skeleton,peer,mtls). */
  against?: AgainstReport;
}

/** The targets of the benchmark issue, each as a ratio to the limit it is measured against. */
function targetOf(
  report: Report,
  scenario: Scenario,
): { limit: string; ratio: number; target: number } | undefined {
  if (scenario.name.startsWith("password login")) {
    return { limit: "cores ÷ hash time", ratio: scenario.rps / report.limits.loginsPerSecond, target: 0.8 };
  }
  if (scenario.name === "identify") {
    return { limit: "bare express", ratio: scenario.rps / report.limits.bareExpressRps, target: 0.35 };
  }
  if (scenario.name.startsWith("introspection"))
    return { limit: "5,000/s", ratio: scenario.rps / 5_000, target: 1 };
  return undefined;
}

const memoryLimitMib = 150;

export function printReport(report: Report): void {
  const rows = report.scenarios.map((scenario) => {
    const target = targetOf(report, scenario);
    const peak = Math.max(...Object.values(scenario.peakMemoryMib));
    const heaviest = Object.entries(scenario.peakMemoryMib).find(([, mib]) => mib === peak)?.[0] ?? "";
    return {
      scenario: scenario.name,
      "req/s": scenario.rps.toFixed(0),
      "p50 ms": scenario.p50.toFixed(1),
      "p99 ms": scenario.p99.toFixed(1),
      errors: scenario.errors + scenario.failures,
      "gRPC/req": scenario.operations.grpc.toFixed(2),
      "Redis/req": scenario.operations.redis.toFixed(2),
      "PG/req": scenario.operations.postgres.toFixed(2),
      "peak RSS MiB": `${peak} (${heaviest})`,
      "vs limit": target
        ? `${(target.ratio * 100).toFixed(0)}% of ${target.limit} (target ${(target.target * 100).toFixed(0)}%)`
        : "",
      ok:
        scenario.errors + scenario.failures === 0 &&
        peak < memoryLimitMib &&
        (!target || target.ratio >= target.target)
          ? "yes"
          : "NO",
    };
  });
  if (rows.length > 0) console.table(rows);
  process.stdout.write(
    `limits: argon2id ${report.limits.hashMs.toFixed(1)} ms per hash, ${report.limits.cores} cores => ${report.limits.loginsPerSecond.toFixed(0)} logins/s; bare express ${report.limits.bareExpressRps.toFixed(0)} req/s\n`,
  );
}
