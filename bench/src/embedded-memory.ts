import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePorts } from "@auth/runtime";
import { listeningProcess } from "./processes.js";

/** What the issue allows the suite's processes on embedded stores, in all (docs/performance.md, "The embedded default's memory"). */
const limitMib = 700;
/** How long the suite is left after the demo login before its memory is read. */
const settleMs = 5_000;
const start = fileURLToPath(new URL("../../infra/local/dist/start.js", import.meta.url));
/** Each process of the suite by the variable of the port it listens on. */
const processPorts = {
  identity: "IDENTITY_PORT",
  session: "SESSION_PORT",
  otp: "OTP_PORT",
  recovery: "RECOVERY_PORT",
  disclaimer: "DISCLAIMER_PORT",
  audit: "AUDIT_PORT",
  gateway: "PORT",
} as const;
type ProcessName = keyof typeof processPorts;

/** Resident and proportional set sizes in MiB: PSS shares the pages of node's binary among its processes. */
function memoryOf(pid: number): { rss: number; pss: number; peak: number } {
  const kib = (file: string, field: string) =>
    Number(
      new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/${file}`, "utf8"))?.[1] ?? 0,
    );
  const mib = (value: number) => Math.round(value / 1024);
  return {
    rss: mib(kib("status", "VmRSS")),
    pss: mib(kib("smaps_rollup", "Pss")),
    peak: mib(kib("status", "VmHWM")),
  };
}

/** Resolves with everything npm start printed once it says the suite is up; rejects if it exits first. */
function upAndPrinted(launcher: ReturnType<typeof spawn>): Promise<string> {
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: launcher.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      lines.push(line);
      // The instructions follow that line; the last of them says how to stop.
      if (line.startsWith("Press Ctrl-C to stop.")) resolve(lines.join("\n"));
    });
    launcher.once("exit", (code) => reject(new Error(`npm start exited ${code}:\n${lines.join("\n")}`)));
  });
}

/** The demo login npm start prints: its two curl commands, sent as they are (the session token put in). */
async function demoLogin(printed: string): Promise<void> {
  const curl = (operation: string) => {
    const [, url, headers, body] =
      new RegExp(`curl -s (\\S+/${operation}) ((?:-H '[^']+' (?:\\\\\\s+)?)+)-d '([^']+)'`).exec(printed) ??
      [];
    if (!url || !headers || !body) throw new Error(`npm start printed no curl to ${operation}`);
    const pairs = [...headers.matchAll(/-H '([^:]+): ([^']+)'/g)].map(([, name, value]) => [name, value]);
    return { url, headers: Object.fromEntries(pairs) as Record<string, string>, body };
  };
  const send = async ({ url, headers, body }: ReturnType<typeof curl>, token?: string) => {
    const answer = (await (
      await fetch(url, {
        method: "POST",
        headers: token ? { ...headers, Authorization: `Bearer ${token}` } : headers,
        body,
      })
    ).json()) as { status?: string; session_token?: string; session_state?: string };
    if (answer.status !== "success") throw new Error(`the demo login failed: ${JSON.stringify(answer)}`);
    return answer;
  };
  const started = await send(curl("login"));
  const checked = await send(curl("checkpassword"), started.session_token);
  if (checked.session_state !== "authorized")
    throw new Error(`the demo login ended in ${checked.session_state}`);
}

function printMemory(when: string, pids: Record<ProcessName, number>): void {
  const memory = Object.entries(pids).map(([name, pid]) => ({ name, ...memoryOf(pid) }));
  const rss = memory.reduce((sum, process) => sum + process.rss, 0);
  const pss = memory.reduce((sum, process) => sum + process.pss, 0);
  process.stdout.write(
    `embedded, ${when}: ${memory.map(({ name, rss, peak }) => `${name} ${rss} (peak ${peak})`).join(", ")} MiB RSS; ` +
      `in all ${rss} MiB RSS (${rss <= limitMib ? "within" : "over"} ${limitMib}), ${pss} MiB PSS\n`,
  );
}

/**
 * The embedded default's memory: npm start on a data folder of its own, as a first start makes it
 * (its data folders made), the demo login it prints, then every process's resident memory. Measured when
 * BENCH_ONLY is unset or names `embedded` (a prefix of it, as every scenario's); true when BENCH_ONLY
 * names nothing else.
 */
export async function measureEmbeddedMemory(only: string[] | undefined): Promise<boolean> {
  const named = (prefix: string) => "embedded".startsWith(prefix);
  if (only && !only.some(named)) return false;
  const dataDir = mkdtempSync(join(tmpdir(), "auth-bench-embedded-"));
  const variables = ["LOGIN_PAGE_PORT", ...Object.values(processPorts)];
  const drawn = await freePorts(variables.length);
  const ports = Object.fromEntries(variables.map((variable, index) => [variable, String(drawn[index])]));
  const started = performance.now();
  const launcher = spawn(process.execPath, [start], {
    env: { ...process.env, ...ports, DATA_DIR: dataDir, DEMO_API_KEY: randomBytes(24).toString("base64url") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const printed = await upAndPrinted(launcher);
    const pids = Object.fromEntries(
      Object.entries(processPorts).map(([name, variable]) => {
        const pid = listeningProcess(Number(ports[variable]));
        if (pid === undefined) throw new Error(`no process of this machine found listening as ${name}`);
        return [name, pid];
      }),
    ) as Record<ProcessName, number>;
    process.stdout.write(
      `embedded: npm start up in ${((performance.now() - started) / 1000).toFixed(0)} s (a first start: data folders made)\n`,
    );
    printMemory("after set-up", pids);
    await demoLogin(printed);
    // The login's security events reach audit through the relays' next rounds.
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    printMemory("after a demo login", pids);
    return only?.every(named) ?? false;
  } finally {
    if (launcher.exitCode === null) {
      const stopped = new Promise((resolve) => launcher.once("exit", resolve));
      launcher.kill("SIGINT");
      await stopped;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
