import autocannon from "autocannon";

export interface LoadResult {
  requests: number;
  /** Requests sent, with those still in flight when the load stopped (the suite serves them after). */
  sent: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answers other than the scenario expects (non-2xx). */
  failures: number;
  durationSeconds: number;
}

export type LoadOptions = Parameters<typeof autocannon>[0];

/** Runs autocannon and reduces its result to what the report shows. */
export async function httpLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({ ...options, excludeErrorStats: false });
  const durationSeconds = result.duration;
  return {
    requests: result.requests.total,
    sent: result.requests.sent,
    rps: result.requests.total / durationSeconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    failures: result.non2xx,
    durationSeconds,
  };
}
