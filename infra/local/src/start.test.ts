import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { boundPort, freePorts } from "@auth/runtime";
import { moduleRecorder, testBudgets } from "@auth/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const start = fileURLToPath(new URL("../dist/start.js", import.meta.url));

/** Runs npm start's launcher with these variables; it must stop on its own before starting anything. */
function runStart(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...nodeArgs, start],
      { env: { ...process.env, ...env }, timeout: testBudgets.testMs },
      (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
    );
  });
}

const variables = [
  "PORT",
  "LOGIN_PAGE_PORT",
  "IDENTITY_PORT",
  "SESSION_PORT",
  "OTP_PORT",
  "RECOVERY_PORT",
  "DISCLAIMER_PORT",
  "AUDIT_PORT",
];

describe("npm start's ports", () => {
  let holder: Server;
  let taken: number;
  let dataDir: string;
  /** Free ports for every variable, so that a suite already running on the defaults changes nothing here. */
  const free: Record<string, string> = {};
  beforeAll(async () => {
    const ports = await freePorts(variables.length);
    for (const [index, variable] of variables.entries()) free[variable] = String(ports[index]);
    dataDir = mkdtempSync(join(tmpdir(), "npm-start-ports-"));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    taken = boundPort(holder);
  });
  afterAll(() => {
    holder.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(variables)(
    "are checked before anything starts: one taken, given in %s, stops it with one line naming the port and the variable",
    async (variable) => {
      const { code, stderr } = await runStart({ ...free, DATA_DIR: dataDir, [variable]: String(taken) });
      expect(code).toBe(1);
      expect(stderr.trim().split("\n")).toEqual([
        `port ${taken} is in use (another npm start?): stop what holds it, or move it with ${variable}=<port> npm start`,
      ]);
    },
  );

  it("stops before it loads the login page, or the services' server side and database drivers", async () => {
    const recorder = moduleRecorder("RECORDED_PROCESS");
    try {
      const { code } = await runStart(
        { ...free, DATA_DIR: dataDir, PORT: String(taken), RECORDED_PROCESS: "start" },
        ["--import", recorder.hook],
      );
      expect(code).toBe(1);
      const loaded = recorder.packagesLoadedBy("start");
      expect(loaded).toContain("zod");
      for (const heavy of ["express", "helmet", "@grpc/reflection", "drizzle-orm", "pg"]) {
        expect(loaded, heavy).not.toContain(heavy);
      }
    } finally {
      recorder.remove();
    }
  });

  it("may not give one port to two variables", async () => {
    const { code, stderr } = await runStart({ ...free, DATA_DIR: dataDir, OTP_PORT: free.PORT ?? "" });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `port ${free.PORT} is given to both PORT and OTP_PORT: set OTP_PORT to another port`,
    );
  });
});
