import type {
  Metadata,
  ServerUnaryCall,
  sendUnaryData,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { Logger } from "pino";
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

/** Adapts async methods to grpc-js, turning thrown errors into statuses with the error code. */
export function implement<D extends ServiceDefinition>(
  definition: D,
  methods: AsyncService<D>,
  logger: Logger,
): UntypedServiceImplementation {
  const implementation: Record<string, UntypedHandleCall> = {};
  for (const name of Object.keys(definition) as Array<keyof D & string>) {
    const method = methods[name];
    const path = definition[name]?.path;
    implementation[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const context: CallContext = { metadata: call.metadata, peer: call.getPeer() };
      method(call.request as RequestOf<D[typeof name]>, context).then(
        (response) => callback(null, response),
        (error: unknown) => {
          const status = toStatus(error);
          if (status.metadata.get("x-error-code")[0] === "internal.error") {
            logger.error({ err: error, method: path }, "call failed");
          } else {
            logger.debug({ method: path, code: status.metadata.get("x-error-code")[0] }, "call refused");
          }
          callback(status, null);
        },
      );
    };
  }
  return implementation;
}
