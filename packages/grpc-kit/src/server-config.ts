import { env } from "@auth/runtime";
import { z } from "zod";
import type { GrpcServerOptions } from "./server.js";
import { grpcTransportEnvironment, transportOf } from "./tls/transport-settings.js";

/** What every gRPC service reads to serve: where, how (mutual TLS), its probe port and reflection. */
export function grpcServerEnvironment(defaultPort: number) {
  return {
    GRPC_HOST: env.host("127.0.0.1"),
    GRPC_PORT: env.port(defaultPort),
    /** A port in plain text serving the standard health service only (kubelet's gRPC probe); off when unset. */
    GRPC_HEALTH_PORT: env.optionalPort(),
    /** Serve gRPC server reflection (grpcurl); off unless asked for. */
    GRPC_REFLECTION: z.stringbool().default(false),
    /** Where GET /metrics answers (Prometheus); off when unset. */
    METRICS_PORT: env.optionalPort(),
    ...grpcTransportEnvironment,
  };
}

type ServerSettings = z.infer<z.ZodObject<ReturnType<typeof grpcServerEnvironment>>>;

/** The startGrpcServer options those settings give. */
export function grpcServerOptionsOf(
  settings: ServerSettings,
): Pick<GrpcServerOptions, "host" | "port" | "healthPort" | "reflection" | "metricsPort" | "transport"> {
  return {
    host: settings.GRPC_HOST,
    port: settings.GRPC_PORT,
    healthPort: settings.GRPC_HEALTH_PORT,
    reflection: settings.GRPC_REFLECTION,
    metricsPort: settings.METRICS_PORT,
    transport: transportOf(settings),
  };
}
