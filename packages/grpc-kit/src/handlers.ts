import { AuthError } from "@auth/errors";
import { metrics } from "@auth/telemetry";
import type {
  Metadata,
  ServerUnaryCall,
  sendUnaryData,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { Logger } from "pino";
import { assertAdmin } from "./admin.js";
import type { RequestOf, ResponseOf, ServiceDefinition } from "./definition.js";
import { toStatus } from "./status.js";

export interface CallContext {
  readonly metadata: Metadata;
  readonly peer: string;
}

/** A service's methods written as async functions that return the response or throw an AuthError. */
export type AsyncService<D extends ServiceDefinition> = {
  [K in keyof D]: (request: RequestOf<D[K]>, context: CallContext) => Promise<ResponseOf<D[K]>>;
};

export interface ImplementOptions<D extends ServiceDefinition = ServiceDefinition> {
  logger: Logger;
  /** Methods only operators may call: they need `authorization: Bearer <admin token>` metadata. */
  admin?: { token: string; methods: ReadonlyArray<keyof D> };
  /** Recognises errors of the service's store (for example a database that is down). */
  translateError?: (error: unknown) => AuthError | undefined;
}

/** Adapts async methods to grpc-js, turning thrown errors into statuses with the error code. */
export function implement<D extends ServiceDefinition>(
  definition: D,
  methods: AsyncService<D>,
  { logger, translateError, admin }: ImplementOptions<D>,
): UntypedServiceImplementation {
  const implementation: Record<string, UntypedHandleCall> = {};
  for (const name of Object.keys(definition) as Array<keyof D & string>) {
    const method = methods[name];
    const path = definition[name]?.path;
    const adminToken = admin?.methods.includes(name) ? admin.token : undefined;
    implementation[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const context: CallContext = { metadata: call.metadata, peer: call.getPeer() };
      const timer = metrics.grpcServerDuration.startTimer({ method: name });
      const run = async () => {
        if (adminToken !== undefined) assertAdmin(call.metadata, adminToken);
        return method(call.request as RequestOf<D[typeof name]>, context);
      };
      run().then(
        (response) => {
          timer();
          metrics.grpcServerCalls.inc({ method: name, outcome: "ok" });
          callback(null, response);
        },
        (thrown: unknown) => {
          timer();
          const error = thrown instanceof AuthError ? thrown : (translateError?.(thrown) ?? thrown);
          metrics.grpcServerCalls.inc({
            method: name,
            outcome: error instanceof AuthError ? error.code : "internal.error",
          });
          if (error instanceof AuthError && error.code !== "internal.error") {
            const level = error.code === "service.unavailable" ? "warn" : "debug";
            logger[level]({ method: path, code: error.code, detail: error.message }, "call refused");
          } else {
            logger.error({ err: thrown, method: path }, "call failed");
          }
          callback(toStatus(error), null);
        },
      );
    };
  }
  return implementation;
}
