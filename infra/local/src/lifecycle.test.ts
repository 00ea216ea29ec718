import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { channelCredentialsOf, createServiceClient } from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport } from "@auth/grpc-kit/dev-pki";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { IdentityServiceService } from "@auth/proto/identity";
import { boundPort, freePorts } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import { Client, type ClientReadableStream, Metadata } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCompanyCode } from "./demo.js";
import { smallFootprint } from "./small-footprint.js";

const start = fileURLToPath(new URL("../dist/start.js", import.meta.url));
const processes = ["identity", "session", "otp", "recovery", "disclaimer", "audit", "gateway"] as const;
const portVariables = [
  "PORT",
  "LOGIN_PAGE_PORT",
  "IDENTITY_PORT",
  "SESSION_PORT",
  "OTP_PORT",
  "RECOVERY_PORT",
  "DISCLAIMER_PORT",
  "AUDIT_PORT",
];

/** One npm start, in a process group of its own as a terminal gives it, and all it printed. */
interface Launch {
  process: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function launch(env: Record<string, string>): Launch {
  const child = spawn(process.execPath, [start], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => stdout.push(line));
  createInterface({ input: child.stderr }).on("line", (line) => stderr.push(line));
  // Its output may still be on its way when the exit is seen: resolve once both streams closed.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { process: child, stdout, stderr, exited };
}

/** Resolves once npm start says the suite is up; rejects if it exits first or takes too long. */
function upOrFailed(started: Launch): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start was not up after ${testBudgets.suiteStartMs} ms`)),
      testBudgets.suiteStartMs,
    );
    started.process.stdout?.on("data", () => {
      if (started.stdout.some((line) => line.startsWith("The suite is up."))) {
        clearTimeout(timer);
        resolve();
      }
    });
    void started.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited ${code}:\n${started.stderr.join("\n")}`));
    });
  });
}

/** Each process of a running suite by name (its entry's workspace), with its node flags and environment, from /proc. */
function processesOf(dataDir: string, launcher: number) {
  const pids = readFileSync(join(dataDir, "suite.lock"), "utf8").trim().split("\n").map(Number);
  return pids
    .filter((pid) => pid !== launcher)
    .map((pid) => {
      const [, ...args] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
      const environment = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      const entry = args.find((arg) => arg.endsWith("/dist/main.js")) ?? "";
      const name = /(\w+)\/dist\/main\.js$/.exec(entry)?.[1];
      return { name, flags: args.slice(0, args.indexOf(entry)), environment };
    });
}

/** What each process of the suite logged, from the launcher's `name | line` output. */
function logOf(started: Launch): Array<{ name: string; msg?: string; signal?: string }> {
  return started.stdout.flatMap((line) => {
    const [, name, json] = /^(\w+)\s+\| (\{.*\})$/.exec(line) ?? [];
    if (!name || !json) return [];
    return [{ name, ...(JSON.parse(json) as { msg?: string; signal?: string }) }];
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A free port for each of the suite's port variables, no two the same. */
async function freePortsOfSuite(): Promise<Record<string, string>> {
  const ports = await freePorts(portVariables.length);
  return Object.fromEntries(portVariables.map((variable, index) => [variable, String(ports[index])]));
}

/** The operator's clients of identity and disclaimer, as authctl makes them from the data folder. */
async function operatorOf(dataDir: string, ports: Record<string, string>) {
  const files = await ensureDevPki(join(dataDir, "pki"), ["operator"]);
  const options = {
    deadlineMs: 10_000,
    adminToken: readFileSync(join(dataDir, "admin-token"), "utf8").trim(),
    transport: mtlsTransport(files.operator as NonNullable<(typeof files)["operator"]>),
  };
  return {
    identity: createServiceClient(IdentityServiceService, `127.0.0.1:${ports.IDENTITY_PORT}`, {
      ...options,
      server: "identity",
    }),
    disclaimer: createServiceClient(DisclaimerServiceService, `127.0.0.1:${ports.DISCLAIMER_PORT}`, {
      ...options,
      server: "disclaimer",
    }),
  };
}

/**
 * A call under way at a service: a health Watch, which the server ends only as it stops (after its
 * grace for calls under way), so that the service's stop lasts a few seconds.
 */
async function callUnderWay(dataDir: string, address: string, server: "identity" | "disclaimer") {
  const files = await ensureDevPki(join(dataDir, "pki"), ["operator"]);
  const channel = channelCredentialsOf(
    mtlsTransport(files.operator as NonNullable<(typeof files)["operator"]>),
    server,
  );
  const client = new Client(address, channel.credentials, channel.options);
  const watch = healthService.Watch as NonNullable<typeof healthService.Watch>;
  const call: ClientReadableStream<unknown> = client.makeServerStreamRequest(
    watch.path,
    watch.requestSerialize,
    watch.responseDeserialize,
    { service: "" },
    new Metadata(),
  );
  call.on("error", () => {});
  await new Promise((resolve) => call.once("data", resolve));
  return () => {
    call.cancel();
    client.close();
  };
}

/** What npm start's stores hold of the probe: an API key label in identity, a disclaimer code in disclaimer. */
async function probeOf(dataDir: string, ports: Record<string, string>) {
  const { identity, disclaimer } = await operatorOf(dataDir, ports);
  try {
    const company = (await identity.getCompany({ code: demoCompanyCode })).company;
    const companyId = company?.id ?? "";
    const keys = await identity.listApiKeys({ companyId });
    const disclaimers = await disclaimer.listDisclaimers({ companyId });
    return {
      apiKeys: keys.apiKeys.map((key) => key.label).filter((label) => label === "probe"),
      disclaimers: disclaimers.disclaimers.map((d) => d.code).filter((code) => code === "probe"),
    };
  } finally {
    identity.close();
    disclaimer.close();
  }
}

async function writeProbe(dataDir: string, ports: Record<string, string>) {
  const { identity, disclaimer } = await operatorOf(dataDir, ports);
  try {
    const companyId = (await identity.getCompany({ code: demoCompanyCode })).company?.id ?? "";
    await identity.createApiKey({
      companyId,
      apiKey: "probe-key-of-the-lifecycle-test-0123",
      label: "probe",
    });
    await disclaimer.createDisclaimer({
      companyId,
      code: "probe",
      title: "Probe",
      description: "Written before the stop.",
      link: "https://example.com/probe",
    });
  } finally {
    identity.close();
    disclaimer.close();
  }
}

describe("npm start's data folder and its stop", () => {
  let dataDir: string;
  let first: Launch;
  let firstPorts: Record<string, string>;
  const launched: Launch[] = [];
  const launchOn = (ports: Record<string, string>) => {
    const started = launch({ ...ports, DATA_DIR: dataDir });
    launched.push(started);
    return started;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "npm-start-lifecycle-"));
    firstPorts = await freePortsOfSuite();
    first = launchOn(firstPorts);
    await upOrFailed(first);
  }, testBudgets.hookMs);

  afterAll(() => {
    for (const started of launched) {
      if (started.process.exitCode === null && started.process.pid) {
        try {
          process.kill(-started.process.pid, "SIGKILL");
        } catch {}
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs every process with the embedded default's flags over the production ones, and its glibc settings", () => {
    const running = processesOf(dataDir, first.process.pid as number);
    expect(running.map(({ name }) => name).sort()).toEqual([...processes].sort());
    for (const { name, flags, environment } of running) {
      for (const flag of smallFootprint.nodeArgs) {
        // V8 takes the last value given of a flag: the footprint's, not production's before it.
        const [option] = flag.split("=");
        expect(flags.filter((given) => given.split("=")[0] === option).at(-1), name).toBe(flag);
      }
      for (const [variable, value] of Object.entries(smallFootprint.commonEnv)) {
        expect(environment, name).toContain(`${variable}=${value}`);
      }
    }
  });

  it("refuses a second suite on the same data with one line naming DATA_DIR and how to choose another", async () => {
    const second = launchOn(await freePortsOfSuite());
    expect(await second.exited).toBe(1);
    expect(second.stderr).toEqual([
      `DATA_DIR ${dataDir} is in use by another suite (pid ${first.process.pid}): stop it, or give this one other data with DATA_DIR=<folder> npm start`,
    ]);
    expect(first.process.exitCode).toBeNull();
  });

  it(
    "stops every process in order on one SIGINT to the launcher's process group, none on a second signal, and keeps the data for the next start",
    async () => {
      await writeProbe(dataDir, firstPorts);
      const calls = await Promise.all([
        callUnderWay(dataDir, `127.0.0.1:${firstPorts.IDENTITY_PORT}`, "identity"),
        callUnderWay(dataDir, `127.0.0.1:${firstPorts.DISCLAIMER_PORT}`, "disclaimer"),
      ]);
      process.kill(-(first.process.pid as number), "SIGINT");
      expect(await first.exited).toBe(0);
      for (const close of calls) close();
      const log = logOf(first);
      expect(log.filter((line) => /second signal|took too long|stop failed/.test(line.msg ?? ""))).toEqual(
        [],
      );
      for (const name of processes) {
        expect(
          log.filter((line) => line.name === name).map((line) => line.msg),
          name,
        ).toEqual(expect.arrayContaining(["stopping", "stopped"]));
      }
      // The gateway first, then the services it calls.
      const gatewayStopped = log.findIndex((line) => line.name === "gateway" && line.msg === "stopped");
      const firstServiceStopping = log.findIndex(
        (line) => line.name !== "gateway" && line.msg === "stopping",
      );
      expect(gatewayStopped).toBeLessThan(firstServiceStopping);
      expect(first.stdout.at(-1)).toBe("Stopped.");

      const again = launchOn(firstPorts);
      await upOrFailed(again);
      expect(await probeOf(dataDir, firstPorts)).toEqual({ apiKeys: ["probe"], disclaimers: ["probe"] });

      // A suite killed outright leaves its lock; its processes stop on their own once the launcher
      // is gone, and the next start is not held back by it.
      process.kill(-(again.process.pid as number), "SIGKILL");
      await again.exited;
      const lockFile = join(dataDir, "suite.lock");
      const holders = readFileSync(lockFile, "utf8").trim().split("\n").map(Number);
      expect(holders).toHaveLength(1 + processes.length);
      await expect
        .poll(() => holders.filter(alive), { timeout: testBudgets.testMs, interval: 200 })
        .toEqual([]);

      const holder: Server = createServer();
      await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
      try {
        const next = launchOn({ ...(await freePortsOfSuite()), PORT: String(boundPort(holder)) });
        expect(await next.exited).toBe(1);
        expect(next.stderr).toEqual([
          `port ${boundPort(holder)} is in use (another npm start?): stop what holds it, or move it with PORT=<port> npm start`,
        ]);
      } finally {
        holder.close();
      }
      expect(existsSync(lockFile)).toBe(false);
    },
    2 * testBudgets.suiteStartMs + 2 * testBudgets.testMs,
  );
});
