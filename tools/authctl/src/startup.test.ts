import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { moduleRecorder } from "@auth/testing";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const recorder = moduleRecorder("RECORDED_PROCESS");

/** The packages of the modules authctl loads to run these arguments. */
async function packagesLoaded(args: string[]): Promise<Set<string>> {
  await run(process.execPath, ["--import", recorder.hook, main, ...args], {
    env: { PATH: process.env.PATH, RECORDED_PROCESS: "authctl" },
  });
  return recorder.packagesLoadedBy("authctl");
}

afterAll(() => recorder.remove());

describe("authctl's start", () => {
  // Each command is a process of its own: what it loads, it loads on every call.
  it("loads neither the services' server side, the health check, NATS nor the importer's libraries for a command that needs none", async () => {
    const loaded = await packagesLoaded(["--help"]);
    expect(loaded).toContain("@grpc/grpc-js");
    for (const heavy of [
      "prom-client",
      "@opentelemetry/api",
      "@grpc/reflection",
      "grpc-health-check",
      "protobufjs",
      "cockatiel",
      "pino",
      "zod",
      "@nats-io/transport-node",
      "csv-parse",
      "cli-progress",
    ]) {
      expect(loaded, heavy).not.toContain(heavy);
    }
  });
});
