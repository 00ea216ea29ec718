import { trace } from "@opentelemetry/api";

/** The trace id of the span under way, when tracing is on. */
export function activeTraceId(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && trace.isSpanContextValid(context) ? context.traceId : undefined;
}
