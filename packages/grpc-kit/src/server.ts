import { AuthError } from "@auth/errors";
import { boundPort, listenOrExit, reportListening } from "@auth/runtime";
import { serveMetrics } from "@auth/telemetry";
import {
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { loadFileDescriptorSetFromBuffer } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation } from "grpc-health-check";
import type { Logger } from "pino";
import type { ServiceDefinition } from "./definition.js";
import { suiteDescriptorSet } from "./descriptors.js";
import { readPaths } from "./idempotent-methods.js";
import { toStatus } from "./status.js";
import { type GrpcTransport, serverCredentialsOf } from "./tls/transport.js";
import { plaintextWarning } from "./tls/transport-settings.js";

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
  /**
   * Resolves once the process's store has answered (docs/operations.md, "Starting without a
   * store"): until then health says NOT_SERVING and every call is answered UNAVAILABLE. Serving
   * at once when absent.
   */
  ready?: Promise<void>;
  /** Called after each call to a method that may write is answered: the relay's `wake`, as it may have written events. */
  onAnswered?: () => void;
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

const serverOptions = { "grpc.max_receive_message_length": 1024 * 1024, "grpc.enable_channelz": 0 };

function bind(server: Server, address: string, credentials: ServerCredentials): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.bindAsync(address, credentials, (error, bound) => (error ? reject(error) : resolve(bound)));
  });
}

/** The health "service" a liveness probe asks for (the manifests' livenessProbe). */
export const livenessName = "liveness";

const notReady = toStatus(
  new AuthError("service.unavailable", { detail: "the service's store is not reached yet" }),
);

/**
 * The service's implementation, answering UNAVAILABLE while `serving()` says no (when given), and
 * telling `onAnswered` after each call it answered to a method that may write: not after a read
 * (NO_SIDE_EFFECTS). Every method is unary (definition.ts).
 */
function hosted(
  service: HostedService,
  serving: (() => boolean) | undefined,
  onAnswered: { tell: () => void; reads: ReadonlySet<string> } | undefined,
): UntypedServiceImplementation {
  if (serving === undefined && onAnswered === undefined) return service.implementation;
  return Object.fromEntries(
    Object.entries(service.implementation).map(([name, handler]) => {
      const told =
        onAnswered && !onAnswered.reads.has(service.definition[name]?.path ?? "")
          ? onAnswered.tell
          : undefined;
      return [
        name,
        (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
          if (serving !== undefined && !serving()) return callback(notReady, null);
          const answer: sendUnaryData<unknown> = told
            ? (...answered) => {
                callback(...answered);
                told();
              }
            : callback;
          (handler as (call: unknown, callback: unknown) => void)(call, answer);
        },
      ];
    }),
  );
}

/**
 * Starts a gRPC server with the standard health checking protocol, and server reflection when
 * asked. It listens at once; with `ready`, it serves once that resolves.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server(serverOptions);
  const serviceNames = ["", ...options.services.map((service) => service.name)];
  let serving = options.ready === undefined;
  let stopping = false;
  const health = new HealthImplementation({
    ...Object.fromEntries(serviceNames.map((name) => [name, serving ? "SERVING" : "NOT_SERVING"])),
    // For liveness probes: SERVING while the process runs, whether its store is reached or not.
    [livenessName]: "SERVING",
  });
  health.addToServer(server);
  if (options.reflection)
    new ReflectionService(loadFileDescriptorSetFromBuffer(suiteDescriptorSet())).addToServer(server);
  const onAnswered = options.onAnswered && { tell: options.onAnswered, reads: readPaths() };
  for (const service of options.services) {
    server.addService(service.definition, hosted(service, serving ? undefined : () => serving, onAnswered));
  }
  if (options.transport.kind === "plaintext") options.logger.error(plaintextWarning);
  const address = `${options.host}:${options.port}`;
  const port = await listenOrExit(options.logger, { address, variable: "GRPC_PORT" }, () =>
    bind(server, address, serverCredentialsOf(options.transport)),
  );

  let healthServer: Server | undefined;
  let healthPort: number | undefined;
  if (options.healthPort !== undefined) {
    healthServer = new Server(serverOptions);
    health.addToServer(healthServer);
    const healthAddress = `${options.host}:${options.healthPort}`;
    healthPort = await listenOrExit(
      options.logger,
      { address: healthAddress, variable: "GRPC_HEALTH_PORT" },
      () => bind(healthServer as Server, healthAddress, ServerCredentials.createInsecure()),
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
  const { metricsPort } = options;
  const metricsServer =
    metricsPort === undefined
      ? undefined
      : await listenOrExit(
          options.logger,
          { address: `${options.host}:${metricsPort}`, variable: "METRICS_PORT" },
          () => serveMetrics(options.host, metricsPort),
        );
  reportListening({ port, healthPort, metricsPort: metricsServer && boundPort(metricsServer) });
  if (serving) options.logger.info("serving");
  options.ready?.then(
    () => {
      if (stopping) return;
      serving = true;
      for (const name of serviceNames) health.setStatus(name, "SERVING");
      options.logger.info("serving");
    },
    () => {
      // Stopped before the store answered: nothing to serve.
    },
  );

  return {
    port,
    ...(healthPort === undefined ? {} : { healthPort }),
    stop: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        stopping = true;
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

/** The server, whose stop() then closes what it served from (its clients, its store). */
export function closingAfterStop(server: RunningGrpcServer, close: () => unknown): RunningGrpcServer {
  return {
    ...server,
    stop: async (graceMs) => {
      await server.stop(graceMs);
      await close();
    },
  };
}
