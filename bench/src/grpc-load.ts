import type { LoadResult } from "./http-load.js";

/** Keeps `concurrency` calls in flight for `durationSeconds` and measures them. */
export async function callLoad(
  call: (index: number) => Promise<unknown>,
  options: { concurrency: number; durationSeconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let index = 0;
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const begun = performance.now();
      try {
        await call(index++);
        latencies.push(performance.now() - begun);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const durationSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return {
    requests: latencies.length + errors,
    sent: latencies.length + errors,
    rps: latencies.length / durationSeconds,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    failures: 0,
    durationSeconds,
  };
}
