import { ExpressInstrumentation } from "@opentelemetry/instrumentation-express";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { NodeSDK } from "@opentelemetry/sdk-node";

let sdk: NodeSDK | undefined;

/**
 * Starts the SDK: exporters and resource from OTEL_*; spans of HTTP, express, gRPC, ioredis and pg,
 * none of which holds a request's values (pg's statements keep their placeholders by default).
 */
export function startTracing(): void {
  sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        // A query string may name a login ID or carry a secret: the span only says there was one.
        startIncomingSpanHook: (request) => (request.url?.includes("?") ? { "url.query": "[redacted]" } : {}),
      }),
      new ExpressInstrumentation(),
      new GrpcInstrumentation(),
      // Keys and arguments hold login IDs (rate limits), token hashes and user ids: the command only.
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
}

/** Sends what is still buffered; a process calls it when it stops. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
