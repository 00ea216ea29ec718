/**
 * Whether the standard OTEL_* variables ask for traces. Without an OTLP endpoint (or an explicit
 * OTEL_TRACES_EXPORTER) nothing of OpenTelemetry is loaded or patched: tracing that is off costs nothing.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === "true" || env.OTEL_TRACES_EXPORTER === "none") return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_TRACES_EXPORTER,
  );
}
