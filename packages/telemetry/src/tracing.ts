import { ExpressInstrumentation } from "@opentelemetry/instrumentation-express";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { NodeSDK } from "@opentelemetry/sdk-node";

let sdk: NodeSDK | undefined;

/** Starts the SDK: exporters and resource from OTEL_*; spans of HTTP, express, gRPC, ioredis and pg. */
export function startTracing(): void {
  sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation(),
      new ExpressInstrumentation(),
      new GrpcInstrumentation(),
      new IORedisInstrumentation(),
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
