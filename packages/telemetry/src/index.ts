import { tracingRequested } from "./requested.js";

export { collectProcessMetrics, metrics, registry, serveMetrics } from "./metrics.js";
export { tracingRequested } from "./requested.js";
export { activeTraceId } from "./trace-id.js";

/** Sends the spans still buffered; a process calls it when it stops. Nothing to do when tracing is off. */
export async function stopTracing(): Promise<void> {
  if (!tracingRequested()) return;
  await (await import("./tracing.js")).stopTracing();
}
