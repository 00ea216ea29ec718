import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = new URL("../dist/main.js", import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), "authctl-startup-"));
/** Runs authctl with its arguments and writes every module it loaded to the file `modules` names. */
const loader = join(dir, "loader.mjs");
writeFileSync(
  loader,
  `import { registerHooks } from "node:module";
import { writeFileSync } from "node:fs";
const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on("exit", () => writeFileSync(process.env.MODULES_FILE, urls.join("\\n")));
await import(${JSON.stringify(main)});
`,
);

/** The packages of the modules authctl loads to run these arguments. */
async function packagesLoaded(args: string[]): Promise<Set<string>> {
  const modules = join(dir, "modules.txt");
  await run(process.execPath, [loader, ...args], { env: { PATH: process.env.PATH, MODULES_FILE: modules } });
  return new Set(
    readFileSync(modules, "utf8")
      .split("\n")
      .map((url) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1])
      .filter((name): name is string => name !== undefined),
  );
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("authctl's start", () => {
  // Each command is a process of its own: what it loads, it loads on every call.
  it("loads neither the services' server side, NATS nor the importer's libraries for a command that needs none", async () => {
    const loaded = await packagesLoaded(["--help"]);
    expect(loaded).toContain("@grpc/grpc-js");
    for (const heavy of [
      "prom-client",
      "@opentelemetry/api",
      "@grpc/reflection",
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
