import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema, MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { suiteDescriptorSet } from "./descriptors.js";

/** A method as a gRPC service config names it. */
export interface MethodName {
  /** Fully qualified, e.g. `auth.session.v1.SessionService`. */
  service: string;
  method: string;
}

interface MethodAtLevel extends MethodName {
  /** Its `option idempotency_level` in the .proto file. */
  idempotency: MethodOptions_IdempotencyLevel;
}

let suiteMethods: MethodAtLevel[] | undefined;

/** Every method of the suite's own contracts, read from their compiled descriptor set once per process (about 20 ms). */
function methodsOfSuite(): MethodAtLevel[] {
  if (suiteMethods) return suiteMethods;
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, suiteDescriptorSet()));
  suiteMethods = [];
  for (const file of registry.files) {
    for (const service of file.services) {
      for (const { name, idempotency } of service.methods)
        suiteMethods.push({ service: service.typeName, method: name, idempotency });
    }
  }
  return suiteMethods;
}

/**
 * The methods the suite's contracts mark safe to send twice: `option idempotency_level` in the
 * .proto files, NO_SIDE_EFFECTS (a read) or IDEMPOTENT (a repeat changes nothing more).
 */
export const idempotentMethods = (): MethodName[] =>
  methodsOfSuite()
    .filter(({ idempotency }) => idempotency !== MethodOptions_IdempotencyLevel.IDEMPOTENCY_UNKNOWN)
    .map(({ service, method }) => ({ service, method }));

/** The paths (`/service/Method`, as a definition names them) of the suite's reads (NO_SIDE_EFFECTS), which write nothing. */
export const readPaths = (): ReadonlySet<string> =>
  new Set(
    methodsOfSuite()
      .filter(({ idempotency }) => idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS)
      .map(({ service, method }) => `/${service}/${method}`),
  );
