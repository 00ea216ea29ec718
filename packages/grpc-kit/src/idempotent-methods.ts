import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema, MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { suiteDescriptorSet } from "./descriptors.js";

/** A method as a gRPC service config names it. */
export interface MethodName {
  /** Fully qualified, e.g. `auth.session.v1.SessionService`. */
  service: string;
  method: string;
}

/** The methods of a set of compiled contracts whose `option idempotency_level` is one of `levels`. */
function methodsAt(
  descriptorSet: Uint8Array,
  levels: readonly MethodOptions_IdempotencyLevel[],
): MethodName[] {
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptorSet));
  const methods: MethodName[] = [];
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const method of service.methods) {
        if (levels.includes(method.idempotency))
          methods.push({ service: service.typeName, method: method.name });
      }
    }
  }
  return methods;
}

/**
 * The methods a set of compiled contracts marks safe to send twice: `option idempotency_level` in
 * the .proto files, NO_SIDE_EFFECTS (a read) or IDEMPOTENT (a repeat changes nothing more).
 */
export const idempotentMethodsOf = (descriptorSet: Uint8Array): MethodName[] =>
  methodsAt(descriptorSet, [
    MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS,
    MethodOptions_IdempotencyLevel.IDEMPOTENT,
  ]);

/** Those of the suite's own contracts. */
export function idempotentMethods(): MethodName[] {
  return idempotentMethodsOf(suiteDescriptorSet());
}

/** The paths (`/service/Method`, as a definition names them) of the suite's reads (NO_SIDE_EFFECTS), which write nothing. */
export const readPaths = (): ReadonlySet<string> =>
  new Set(
    methodsAt(suiteDescriptorSet(), [MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS]).map(
      ({ service, method }) => `/${service}/${method}`,
    ),
  );
