import { register } from "node:module";
import { tracingRequested } from "./requested.js";

// Loaded with `node --import @auth/telemetry/register`, before the process's own modules, so that
// the instrumentations can patch http, express, grpc-js, ioredis and pg as they are loaded.
if (tracingRequested()) {
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  const { startTracing } = await import("./tracing.js");
  startTracing();
}
