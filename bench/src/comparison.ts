import { type ComparedFlow, comparedFlows, type LoadShape, requestsPerFlow } from "./flows.js";
import type { LoadResult } from "./http-load.js";
import { ProcessSampler } from "./processes.js";
import { median, type RoundRatio, roundRatio } from "./ratios.js";

/** gRPC calls, Redis commands and SQL statements per HTTP request, as a side counts them. */
export interface SideOperations {
  grpc: number;
  redis: number;
  postgres: number;
}

/** What the product is compared with, or the product itself: its processes and a load per flow it serves. */
export interface Side {
  name: string;
  processes: Array<{ name: string; pid: number | undefined }>;
  /** Which of the processes is the HTTP gateway, when the side has one apart. */
  gateway?: string;
  loads: Partial<Record<ComparedFlow, (shape: LoadShape) => Promise<LoadResult>>>;
  /** HTTP requests one flow takes here, when not the product's (better-auth signs in with one). */
  requestsPerFlow?: Partial<Record<ComparedFlow, number>>;
  /** Runs a flow's load and counts the operations per request it made. */
  counted(
    flow: ComparedFlow,
    run: () => Promise<LoadResult>,
  ): Promise<{ result: LoadResult; operations: SideOperations }>;
}

export interface SideOfFlow {
  side: string;
  /** CPU milliseconds per flow of the side's processes, one per round. */
  cpuMs: number[];
  /** CPU milliseconds per flow of the side's gateway alone, one per round, when it has one. */
  gatewayCpuMs: number[];
  flowsPerSecond: number[];
  p99Ms: number[];
  errors: number;
  operations: SideOperations;
}

export interface Comparison {
  rounds: number;
  durationSeconds: number;
  flows: Partial<Record<ComparedFlow, SideOfFlow[]>>;
}

/**
 * Every flow on every side that serves it, in interleaved rounds (each round in another order of
 * the sides, after one unmeasured round to warm them), so that the machine's drift falls on all.
 */
export async function compareSides(
  sides: Side[],
  options: { rounds: number; shape: LoadShape; warmUpSeconds: number },
): Promise<Comparison> {
  const flows: Comparison["flows"] = {};
  for (const flow of comparedFlows) {
    const serving = sides.filter((side) => side.loads[flow]);
    for (const side of serving)
      await side.loads[flow]?.({ ...options.shape, durationSeconds: options.warmUpSeconds });
    const results = new Map<string, SideOfFlow>(
      serving.map((side) => [
        side.name,
        {
          side: side.name,
          cpuMs: [],
          gatewayCpuMs: [],
          flowsPerSecond: [],
          p99Ms: [],
          errors: 0,
          operations: { grpc: 0, redis: 0, postgres: 0 },
        },
      ]),
    );
    for (let round = 0; round < options.rounds; round += 1) {
      const order = [...serving.slice(round % serving.length), ...serving.slice(0, round % serving.length)];
      for (const side of order) {
        const sampler = new ProcessSampler(side.processes);
        const run = side.loads[flow] as (shape: LoadShape) => Promise<LoadResult>;
        const { result, operations } = await side.counted(flow, () => {
          sampler.start();
          return run(options.shape);
        });
        const { cpuSeconds } = sampler.stop();
        const perFlow = side.requestsPerFlow?.[flow] ?? requestsPerFlow[flow];
        const flowsDone = Math.max(1, (result.requests - result.errors - result.failures) / perFlow);
        const cpu = side.processes.reduce((sum, { name }) => sum + (cpuSeconds[name] ?? 0), 0);
        const entry = results.get(side.name) as SideOfFlow;
        entry.cpuMs.push((cpu * 1000) / flowsDone);
        if (side.gateway) entry.gatewayCpuMs.push(((cpuSeconds[side.gateway] ?? 0) * 1000) / flowsDone);
        entry.flowsPerSecond.push(result.rps / perFlow);
        entry.p99Ms.push(result.p99);
        entry.errors += result.errors + result.failures;
        entry.operations = operations;
      }
    }
    flows[flow] = [...results.values()];
  }
  return { rounds: options.rounds, durationSeconds: options.shape.durationSeconds, flows };
}

/** The product's CPU per flow against another side's, round by round. */
export function ratioTo(
  comparison: Comparison,
  flow: ComparedFlow,
  product: string,
  other: string,
): RoundRatio | undefined {
  const sides = comparison.flows[flow] ?? [];
  const ours = sides.find(({ side }) => side === product);
  const theirs = sides.find(({ side }) => side === other);
  return ours && theirs ? roundRatio(ours.cpuMs, theirs.cpuMs) : undefined;
}

const fixed = (value: number, digits = 2) => value.toFixed(digits);
const describeRatio = (ratio: RoundRatio | undefined) =>
  ratio ? `${fixed(ratio.median)}× (${fixed(ratio.low)}-${fixed(ratio.high)})` : "";

/** A table per flow: each side's CPU per flow (median of the rounds), rate, p99, operations, and the product's ratio to it. */
export function printComparison(comparison: Comparison, product: string): void {
  process.stdout.write(
    `\nCPU per flow, ${comparison.rounds} interleaved rounds of ${comparison.durationSeconds} s (the sides' own processes; PostgreSQL and Redis not counted):\n`,
  );
  for (const [flow, sides] of Object.entries(comparison.flows) as Array<[ComparedFlow, SideOfFlow[]]>) {
    console.table(
      sides.map((entry) => ({
        flow,
        side: entry.side,
        "CPU ms": fixed(median(entry.cpuMs)),
        "flows/s": fixed(median(entry.flowsPerSecond), 0),
        "p99 ms": fixed(median(entry.p99Ms), 0),
        errors: entry.errors,
        "gRPC/req": fixed(entry.operations.grpc),
        "Redis/req": fixed(entry.operations.redis),
        "SQL/req": fixed(entry.operations.postgres),
        [`${product} ÷ side`]:
          entry.side === product ? "" : describeRatio(ratioTo(comparison, flow, product, entry.side)),
      })),
    );
  }
}
