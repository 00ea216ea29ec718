import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** The suite's compiled contracts (proto/auth), as buf wrote them into @auth/proto. */
export function suiteDescriptorSet(): Buffer {
  return readFileSync(createRequire(import.meta.url).resolve("@auth/proto/descriptors.binpb"));
}
