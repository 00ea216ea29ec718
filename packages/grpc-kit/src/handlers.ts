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
import { type AccessTable, authorize, callerOfCall, checkAccessTable } from "./access.js";
import { adminTokenDigestOf } from "./admin.js";
import { assertTimeLeft, deadlinesPassedOn, withDeadline } from "./deadline.js";
import type { RequestOf, ResponseOf, ServiceDefinition } from "./definition.js";
import { toStatus } from "./status.js";
import type { Caller } from "./tls/spiffe.js";

export interface CallContext {
  readonly metadata: Metadata;
  readonly peer: string;
  /** Who called, by its verified certificate; undefined over plain text (the development flag). */
  readonly caller: Caller | undefined;
  /** The call came over plain text (the development flag): there is no caller to check. */
  readonly plaintext: boolean;
  /** The verified client certificate's subject and SHA-256 fingerprint (who an operator is). */
  readonly certificate: { subject: string; sha256: string } | undefined;
  /** The moment (epoch ms) by which the caller must have the answer; infinite when it set none. */
  readonly deadline: number;
}

/** A service's methods written as async functions that return the response or throw an AuthError. */
export type AsyncService<D extends ServiceDefinition> = {
  [K in keyof D]: (request: RequestOf<D[K]>, context: CallContext) => Promise<ResponseOf<D[K]>>;
};

export interface ImplementOptions<D extends ServiceDefinition = ServiceDefinition> {
  logger: Logger;
  /** Which callers may call each method; checked against the definition here, at start-up. */
  access: AccessTable<D>;
  /**
   * The SHA-256 (hex) of the deployment's admin token, which operators present beside their
   * certificate: the service holds no value it could present itself (docs/operations.md, "The admin
   * token"). Checked here, at start-up.
   */
  adminTokenSha256?: string;
  /** Recognises errors of the service's store (for example a database that is down). */
  translateError?: (error: unknown) => AuthError | undefined;
}

const serviceNameOf = (definition: ServiceDefinition) =>
  Object.values(definition)[0]?.path.split("/")[1] ?? "a service without methods";

/**
 * Adapts async methods to grpc-js: refuses a caller the access table does not allow before the
 * handler runs, and turns thrown errors into statuses with the error code.
 */
export function implement<D extends ServiceDefinition>(
  definition: D,
  methods: AsyncService<D>,
  { logger, translateError, access, adminTokenSha256 }: ImplementOptions<D>,
): UntypedServiceImplementation {
  checkAccessTable(serviceNameOf(definition), definition, access);
  if (adminTokenSha256 !== undefined) adminTokenDigestOf(adminTokenSha256);
  const implementation: Record<string, UntypedHandleCall> = {};
  for (const name of Object.keys(definition) as Array<keyof D & string>) {
    const method = methods[name];
    const path = definition[name]?.path;
    const allowed = access[name];
    // The method's label sets, made once here rather than for each call.
    const timed = { method: name };
    const succeeded = { method: name, outcome: "ok" };
    implementation[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const who = callerOfCall(call);
      const deadline = call.getDeadline();
      const until = deadline instanceof Date ? deadline.getTime() : deadline;
      const context: CallContext = {
        metadata: call.metadata,
        peer: call.getPeer(),
        caller: who.caller,
        plaintext: who.plaintext,
        certificate: who.certificate,
        deadline: until,
      };
      const timer = metrics.grpcServerDuration.startTimer(timed);
      const run = async () => {
        try {
          authorize(allowed, who, call.metadata, adminTokenSha256);
        } catch (error) {
          if (error instanceof AuthError && error.code === "caller.forbidden") {
            metrics.grpcCallsDenied.inc({ method: name, caller: who.caller ?? "unknown" });
            logger.warn(
              { securityEvent: "grpc.call.denied", method: path, caller: who.spiffeIds, peer: context.peer },
              "security event",
            );
          }
          throw error;
        }
        // A call that waited past its deadline (a busy or frozen process) is not started at all.
        assertTimeLeft(until);
        return method(call.request as RequestOf<D[typeof name]>, context);
      };
      // The caller's deadline bounds every call the handler makes in turn, in a process that makes any.
      (deadlinesPassedOn() ? withDeadline(until, run) : run()).then(
        (response) => {
          timer();
          metrics.grpcServerCalls.inc(succeeded);
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
