import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { boundPort, reportListening } from "@auth/runtime";
import { serveMetrics } from "@auth/telemetry";
import { Server, ServerCredentials, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { loadFileDescriptorSetFromBuffer } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation } from "grpc-health-check";
import type { Logger } from "pino";
import type { ServiceDefinition } from "./definition.js";
import { type GrpcTransport, plaintextWarning, serverCredentialsOf } from "./tls/transport.js";

export interface HostedService {
  /** Fully qualified name, e.g. `auth.session.v1.SessionService`, as health checks ask for it. */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface GrpcServerOptions {
  host: string;
  port: number;
  /** Mutual TLS, or plain text under the development flag. */
  transport: GrpcTransport;
  /**
   * A port in plain text that serves the standard health service and nothing else, for probes that
   * speak no TLS (kubelet's gRPC probe); none when absent.
   */
  healthPort?: number;
  /** Serve server reflection (for grpcurl and the like); off unless asked for. */
  reflection?: boolean;
  /** Where GET /metrics answers in the Prometheus format; no metrics server when absent. */
  metricsPort?: number;
  services: HostedService[];
  logger: Logger;
}

export interface RunningGrpcServer {
  /** The bound port (useful when 0 asked for a free one). */
  port: number;
  /** The bound health-only port, when one was asked for. */
  healthPort?: number;
  /** Reports NOT_SERVING, lets calls under way finish for up to graceMs, then closes. */
  stop(graceMs?: number): Promise<void>;
}

function loadDescriptors() {
  const path = createRequire(import.meta.url).resolve("@auth/proto/descriptors.binpb");
  return loadFileDescriptorSetFromBuffer(readFileSync(path));
}

const serverOptions = { "grpc.max_receive_message_length": 1024 * 1024, "grpc.enable_channelz": 0 };

function bind(server: Server, address: string, credentials: ServerCredentials): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.bindAsync(address, credentials, (error, bound) => (error ? reject(error) : resolve(bound)));
  });
}

/** Starts a gRPC server with the standard health checking protocol, and server reflection when asked. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server(serverOptions);
  const serviceNames = ["", ...options.services.map((service) => service.name)];
  const health = new HealthImplementation(Object.fromEntries(serviceNames.map((name) => [name, "SERVING"])));
  health.addToServer(server);
  if (options.reflection) new ReflectionService(loadDescriptors()).addToServer(server);
  for (const service of options.services) {
    server.addService(service.definition, service.implementation);
  }
  if (options.transport.kind === "plaintext") options.logger.error(plaintextWarning);
  const port = await bind(server, `${options.host}:${options.port}`, serverCredentialsOf(options.transport));

  let healthServer: Server | undefined;
  let healthPort: number | undefined;
  if (options.healthPort !== undefined) {
    healthServer = new Server(serverOptions);
    health.addToServer(healthServer);
    healthPort = await bind(
      healthServer,
      `${options.host}:${options.healthPort}`,
      ServerCredentials.createInsecure(),
    );
  }
  options.logger.info(
    {
      host: options.host,
      port,
      healthPort,
      tls: options.transport.kind,
      reflection: options.reflection ?? false,
    },
    "gRPC server listening",
  );
  const metricsServer =
    options.metricsPort === undefined ? undefined : await serveMetrics(options.host, options.metricsPort);
  reportListening({ port, healthPort, metricsPort: metricsServer && boundPort(metricsServer) });

  return {
    port,
    ...(healthPort === undefined ? {} : { healthPort }),
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        for (const name of serviceNames) health.setStatus(name, "NOT_SERVING");
        const timer = setTimeout(() => {
          options.logger.warn({ graceMs }, "calls still under way, closing them");
          server.forceShutdown();
          healthServer?.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          healthServer?.forceShutdown();
          resolve();
        });
        metricsServer?.close();
      }),
  };
}
