import { fileURLToPath } from "node:url";
import type { ProcessName } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { moduleRecorder, testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Each process of the suite records what it loaded, in a file named for it (OTEL_SERVICE_NAME). */
const recorder = moduleRecorder("OTEL_SERVICE_NAME");

const nats = ["@nats-io/transport-node", "@nats-io/jetstream"];
/**
 * What a process that served no request loads at none of its starts, its events going to the file:
 * the libraries of some requests only, loaded at the first (docs/performance.md, "Modules loaded at
 * start").
 */
const notAtStart: Record<ProcessName, string[]> = {
  identity: [...nats, "@simplewebauthn/server", "@peculiar/x509", "@peculiar/asn1-schema", "openid-client"],
  session: nats,
  otp: [...nats, "libphonenumber-js"],
  recovery: nats,
  disclaimer: nats,
  audit: nats,
  gateway: [...nats, "libphonenumber-js"],
};

/** The suite's own processes, each loading the recorder first; stopped before the tests read what they loaded. */
describe("what each process loads to start", () => {
  let own: Awaited<ReturnType<typeof startOwnSuite>>;
  beforeAll(async () => {
    own = await startOwnSuite({}, { nodeArgs: ["--import", recorder.hook] });
    await own.stop();
  }, testBudgets.hookMs);

  afterAll(() => recorder.remove());

  it.each(Object.entries(notAtStart) as [ProcessName, string[]][])(
    "%s loads gRPC but not %j",
    (name, libraries) => {
      const loaded = recorder.packagesLoadedBy(name);
      // Instrumented by OpenTelemetry, which patches it as it loads: it stays loaded at start.
      expect(loaded).toContain("@grpc/grpc-js");
      for (const library of libraries) expect(loaded, library).not.toContain(library);
    },
  );

  it.runIf(process.env.NODE_COMPILE_CACHE === undefined)(
    "keeps what V8 compiled of the modules in the checkout's node_modules/.cache, for the next start",
    () => {
      const folder = new URL("../../node_modules/.cache/auth-suite/node-compile-cache", import.meta.url);
      for (const [name, child] of Object.entries(own.suite.children)) {
        expect(child.options.env.NODE_COMPILE_CACHE, name).toBe(fileURLToPath(folder));
      }
    },
  );
});
