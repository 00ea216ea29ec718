import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProcessName } from "@auth/suite";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "e2e-start-modules-"));
/** Loaded before each process's own modules: writes the URL of every module it loaded as it exits. */
const recorder = join(dir, "recorder.mjs");
writeFileSync(
  recorder,
  `import { registerHooks } from "node:module";
import { writeFileSync } from "node:fs";
const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on("exit", () => writeFileSync(${JSON.stringify(dir)} + "/" + process.env.OTEL_SERVICE_NAME + ".txt", urls.join("\\n")));
`,
);

/** The packages of the modules a process loaded from its start until it stopped. */
function packagesLoaded(name: ProcessName): Set<string> {
  return new Set(
    readFileSync(join(dir, `${name}.txt`), "utf8")
      .split("\n")
      .map((url) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1])
      .filter((name): name is string => name !== undefined),
  );
}

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
  beforeAll(async () => {
    const own = await startOwnSuite({}, { nodeArgs: ["--import", recorder] });
    await own.stop();
  }, testBudgets.hookMs);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(Object.entries(notAtStart) as [ProcessName, string[]][])(
    "%s loads gRPC but not %j",
    (name, libraries) => {
      const loaded = packagesLoaded(name);
      // Instrumented by OpenTelemetry, which patches it as it loads: it stays loaded at start.
      expect(loaded).toContain("@grpc/grpc-js");
      for (const library of libraries) expect(loaded, library).not.toContain(library);
    },
  );
});
