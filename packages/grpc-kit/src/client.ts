import { Client, Metadata, type ServiceError } from "@grpc/grpc-js";
import { adminMetadata } from "./admin.js";
import { callDeadline, passDeadlinesOn } from "./deadline.js";
import type { RequestOf, ResponseOf, ServiceDefinition } from "./definition.js";
import { idempotentMethods } from "./idempotent-methods.js";
import { fromServiceError } from "./status.js";
import type { GrpcServiceName } from "./tls/spiffe.js";
import { channelCredentialsOf, type GrpcTransport } from "./tls/transport.js";

export interface CallOptions {
  /** Overrides the client's deadline for this call (a request's deadline still comes first: deadline.ts). */
  deadlineMs?: number;
  /** The moment (epoch ms) by which the request the call serves must be answered: the call gets no more. */
  requestDeadline?: number;
  /** In place of the client's own (the admin token's, or none): a request's origin (request-origin.ts). */
  metadata?: Metadata;
}

/** A promise per method; every call has a deadline and fails as an AuthError. */
export type ServiceClient<D extends ServiceDefinition> = {
  [K in keyof D]: (request: RequestOf<D[K]>, options?: CallOptions) => Promise<ResponseOf<D[K]>>;
} & { close(): void };

export interface ClientOptions {
  /**
   * Milliseconds a call may take before it fails with `service.unavailable`; less when the request
   * it serves has less left (deadline.ts).
   */
  deadlineMs: number;
  /** Mutual TLS with this process's certificate, or plain text under the development flag. */
  transport: GrpcTransport;
  /** The process that serves the service: its certificate must name it. */
  server: GrpcServiceName;
  /** Sent with every call: an operator's client (the CLI, the demo seed, tests). */
  adminToken?: string;
  /** How long a keepalive ping may go unanswered before the connection counts as dead (channelOptions). */
  keepaliveTimeoutMs?: number;
  /** Where each call is counted by its outcome; without it none is (authctl, which serves no metrics). */
  callCounter?: CallCounter;
}

/** A counter of calls by service, method and outcome (`ok`, else the error code): grpcClientCalls. */
export interface CallCounter {
  inc(labels: { service: string; method: string; outcome: string }): void;
}

/**
 * A call that met UNAVAILABLE (its replica's connection failed, a hung replica's included, or it was
 * refused) is sent again, to another replica, only when its method is marked safe to send twice in
 * the contracts; the standard health check is a read too. A write never is: a failure is its answer.
 */
const retriedOnUnavailable = {
  name: [...idempotentMethods(), { service: "grpc.health.v1.Health", method: "Check" }],
  retryPolicy: {
    maxAttempts: 3,
    initialBackoff: "0.02s",
    maxBackoff: "0.2s",
    backoffMultiplier: 2,
    retryableStatusCodes: ["UNAVAILABLE"],
  },
};

/** How long after a ping's answer the next ping is sent (docs/operations.md, "A replica that hangs"). */
export const keepaliveTimeMs = 500;

/**
 * The product's GRPC_KEEPALIVE_TIMEOUT_MS: longer than a live process on a machine loaded to 10× its
 * cores leaves its event loop (and so a ping) waiting, short enough that a frozen one is left within
 * seconds (docs/operations.md, "A replica that hangs").
 */
export const defaultKeepaliveTimeoutMs = 4_000;

/**
 * How every channel to a service behaves (the services' clients and the gateway's health probes);
 * docs/operations.md, "A replica that hangs".
 */
export const channelOptions = (keepaliveTimeoutMs = defaultKeepaliveTimeoutMs) => ({
  // A hung replica (stopped, stalled, cut off) is declared dead when a ping goes unanswered for the
  // keepalive timeout, whether or not calls are under way: its calls fail (reads are retried on
  // another replica) and round_robin leaves it until it answers a new connection. A ping is
  // answered by the peer's event loop, so the timeout must outlast that loop's longest stall on a
  // loaded machine. The servers (grpc-js) enforce no minimum ping interval.
  "grpc.keepalive_time_ms": keepaliveTimeMs,
  "grpc.keepalive_timeout_ms": keepaliveTimeoutMs,
  "grpc.keepalive_permit_without_calls": 1,
  // A restarted service is found again within a second, however long it was away.
  "grpc.initial_reconnect_backoff_ms": 200,
  "grpc.max_reconnect_backoff_ms": 1_000,
  // A target naming several replicas (dns:/// of a headless service, ipv4:a,b) spreads the calls over them.
  "grpc.service_config": JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [retriedOnUnavailable],
  }),
  // channelz is not served, and costs CPU on every call.
  "grpc.enable_channelz": 0,
});

export function createServiceClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  options: ClientOptions,
): ServiceClient<D> {
  passDeadlinesOn();
  const channel = channelCredentialsOf(options.transport, options.server);
  const client = new Client(address, channel.credentials, {
    ...channel.options,
    ...channelOptions(options.keepaliveTimeoutMs),
  });
  // Made once per client, as the label set of each method's successes: grpc-js copies a call's
  // metadata when the call starts, so every call may be given the same object.
  const ownMetadata = options.adminToken ? adminMetadata(options.adminToken) : new Metadata();
  const methods: Record<string, unknown> = { close: () => client.close() };
  for (const [name, method] of Object.entries(definition)) {
    const succeeded = { service: options.server, method: name, outcome: "ok" };
    methods[name] = (request: unknown, callOptions: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        client.makeUnaryRequest(
          method.path,
          method.requestSerialize,
          method.responseDeserialize,
          request,
          callOptions.metadata ?? ownMetadata,
          {
            deadline: callDeadline(callOptions.deadlineMs ?? options.deadlineMs, callOptions.requestDeadline),
          },
          (error: ServiceError | null, response?: unknown) => {
            if (error) {
              const failure = fromServiceError(error);
              options.callCounter?.inc({ service: options.server, method: name, outcome: failure.code });
              reject(failure);
            } else {
              options.callCounter?.inc(succeeded);
              resolve(response);
            }
          },
        );
      });
  }
  return methods as ServiceClient<D>;
}

/**
 * The client's calls for one request: each with the request's options (its deadline and metadata,
 * made once for the request) beneath its own. Passed along explicitly rather than found in an
 * AsyncLocalStorage, which would run a hook on every promise of the process (docs/performance.md,
 * "The gateway's own overhead").
 */
export function forRequest<C extends object>(client: C, requestOptions: CallOptions): C {
  return new Proxy(client, {
    get(target, key) {
      const member: unknown = Reflect.get(target, key);
      if (typeof member !== "function" || key === "close") return member;
      return (request: unknown, own?: CallOptions) =>
        member.call(target, request, own ? { ...requestOptions, ...own } : requestOptions);
    },
  });
}
