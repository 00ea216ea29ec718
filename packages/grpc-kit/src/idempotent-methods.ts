import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema, MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { suiteDescriptorSet } from "./descriptors.js";

/** A method as a gRPC service config names it. */
export interface MethodName {
  /** Fully qualified, e.g. `auth.session.v1.SessionService`. */
  service: string;
  method: string;
}

/**
 * The methods a set of compiled contracts marks safe to send twice: `option idempotency_level` in
 * the .proto files, NO_SIDE_EFFECTS (a read) or IDEMPOTENT (a repeat changes nothing more).
 */
export function idempotentMethodsOf(descriptorSet: Uint8Array): MethodName[] {
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptorSet));
  const methods: MethodName[] = [];
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const method of service.methods) {
        if (method.idempotency !== MethodOptions_IdempotencyLevel.IDEMPOTENCY_UNKNOWN) {
          methods.push({ service: service.typeName, method: method.name });
        }
      }
    }
  }
  return methods;
}

/** Those of the suite's own contracts. */
export function idempotentMethods(): MethodName[] {
  return idempotentMethodsOf(suiteDescriptorSet());
}
