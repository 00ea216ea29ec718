import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { serveMetrics } from "@auth/telemetry";
import { Server, ServerCredentials, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { loadFileDescriptorSetFromBuffer } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation } from "grpc-health-check";
import type { Logger } from "pino";
import type { ServiceDefinition } from "./definition.js";

export interface HostedService {
  /** Fully qualified name, e.g. `auth.session.v1.SessionService`, as health checks ask for it. */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface GrpcServerOptions {
  host: string;
  port: number;
  /** Where GET /metrics answers in the Prometheus format; no metrics server when absent. */
  metricsPort?: number;
  services: HostedService[];
  logger: Logger;
}

export interface RunningGrpcServer {
  /** The bound port (useful when 0 asked for a free one). */
  port: number;
  /** Reports NOT_SERVING, lets calls under way finish for up to graceMs, then closes. */
  stop(graceMs?: number): Promise<void>;
}

function loadDescriptors() {
  const path = createRequire(import.meta.url).resolve("@auth/proto/descriptors.binpb");
  return loadFileDescriptorSetFromBuffer(readFileSync(path));
}

/** Starts a gRPC server with the standard health checking protocol and server reflection. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server({ "grpc.max_receive_message_length": 1024 * 1024, "grpc.enable_channelz": 0 });
  const serviceNames = ["", ...options.services.map((service) => service.name)];
  const health = new HealthImplementation(Object.fromEntries(serviceNames.map((name) => [name, "SERVING"])));
  health.addToServer(server);
  new ReflectionService(loadDescriptors()).addToServer(server);
  for (const service of options.services) {
    server.addService(service.definition, service.implementation);
  }
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  options.logger.info({ host: options.host, port }, "gRPC server listening");
  const metricsServer =
    options.metricsPort === undefined ? undefined : await serveMetrics(options.host, options.metricsPort);

  return {
    port,
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        for (const name of serviceNames) health.setStatus(name, "NOT_SERVING");
        const timer = setTimeout(() => {
          options.logger.warn({ graceMs }, "calls still under way, closing them");
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
        metricsServer?.close();
      }),
  };
}
