import { Agent, request as httpRequest } from "node:http";
import type { LoadOptions, LoadResult } from "./http-load.js";
import { quantile } from "./ratios.js";

type Step = NonNullable<LoadOptions["requests"]>[number];

export interface OpenLoopOptions {
  /** The first request's URL; a step's `path` replaces its path. */
  url: string;
  /** Flows started a second, on average. */
  arrivalRate: number;
  durationSeconds: number;
  /** One flow: its requests one after another, as autocannon takes them (`setupRequest`, `onResponse`). */
  requests: Step[];
}

/** A wait of a request that does not answer, after which it counts as an error. */
const answerTimeoutMs = 30_000;

/**
 * An open loop: flows start at random moments (Poisson arrivals, `arrivalRate` a second on average)
 * whether or not earlier ones have been answered, as users arrive. autocannon's rate limit is not
 * one: each connection sends its quota for the second as fast as answers come, then waits for the
 * next second, so its "half of saturation" is saturation for half of each second
 * (docs/performance.md, "Half of saturation, arriving over time"). A flow's first request is timed
 * from the moment it was due, so a late timer in this process counts against the server, not for it.
 */
export async function openLoopLoad({
  url,
  arrivalRate,
  durationSeconds,
  requests,
}: OpenLoopOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true });
  const base = new URL(url);
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  let failures = 0;

  const send = (step: Step, context: object) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const prepared = step.setupRequest
        ? (step.setupRequest as (request: Step, context: object) => Step)({ ...step }, context)
        : step;
      const req = httpRequest(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method: prepared.method ?? "GET",
          path: prepared.path ?? base.pathname,
          headers: prepared.headers,
          timeout: answerTimeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error("no answer")));
      req.on("error", reject);
      req.end(prepared.body);
    });

  const flow = async (due: number) => {
    const context = {};
    let startedAt = due;
    for (const step of requests) {
      sent++;
      try {
        const { status, body } = await send(step, context);
        latencies.push(performance.now() - startedAt);
        if (status < 200 || status >= 300) {
          failures++;
          return;
        }
        if (typeof step.onResponse === "function") step.onResponse(status, body, context, {});
      } catch {
        errors++;
        return;
      }
      startedAt = performance.now();
    }
  };

  const start = performance.now();
  const end = start + durationSeconds * 1000;
  const flows: Array<Promise<void>> = [];
  let due = start;
  for (;;) {
    due += (-Math.log(1 - Math.random()) / arrivalRate) * 1000;
    if (due >= end) break;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    flows.push(flow(due));
  }
  await Promise.all(flows);
  const elapsedSeconds = (performance.now() - start) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    sent,
    rps: latencies.length / elapsedSeconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    failures,
    durationSeconds: elapsedSeconds,
  };
}
