import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@auth/runtime";
import { testBudgets } from "@auth/testing";

/**
 * A PostgreSQL cluster and a Redis of a test file's own, on loopback ports, that the test may stop
 * and start again at will (the shared ones on 5432 and 6379 are never touched). Each server runs
 * under a shell that ends it once this process's end of the pipe closes, so that no server
 * outlives the test process, however that process ends.
 */

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const postgresBin = "/usr/lib/postgresql/15/bin";
/**
 * Runs the server in the background, prints its pid, and ends it (and waits for it) when stdin
 * closes; a server left frozen (SIGSTOP) by a test that failed is let go on first.
 */
const watchdog = (server: string, signal: string) =>
  `${server} "$@" & server=$!; echo "$server"; cat > /dev/null; ` +
  `pkill -CONT -P "$server" 2>/dev/null; kill -CONT "$server" 2>/dev/null; ` +
  `kill -${signal} "$server" 2>/dev/null; wait "$server"`;

function onPath(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const isRoot = () => process.getuid?.() === 0;

/** Why private stores cannot be started on this machine, or undefined when they can. */
export function privateStoresMissing(): string | undefined {
  for (const binary of ["initdb", "pg_ctl", "postgres", "pg_isready"]) {
    if (!existsSync(join(postgresBin, binary)))
      return `PostgreSQL 15 binaries missing (${postgresBin}/${binary})`;
  }
  if (!onPath("redis-server")) return "redis-server is not on PATH";
  if (isRoot()) {
    // PostgreSQL refuses to run as root: its processes run as the postgres user.
    if (!onPath("runuser")) return "running as root without runuser";
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
    } catch {
      return "running as root and there is no postgres user";
    }
  }
  return undefined;
}

/** The port answers a TCP connection. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`${what} after ${timeoutMs} ms`);
}

/** One run of a server under its watchdog shell. */
interface Watched {
  shell: ChildProcess;
  /** The server's own pid. */
  pid: number;
  exited: Promise<void>;
}

async function startWatched(command: string[], script: string, args: string[], logFile: string) {
  const log = openSync(logFile, "a");
  const shell = spawn(command[0] as string, [...command.slice(1), "sh", "-c", script, "sh", ...args], {
    stdio: ["pipe", "pipe", log],
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => shell.once("exit", () => resolve()));
  const pid = await new Promise<number>((resolve, reject) => {
    let output = "";
    shell.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^(\d+)\n/.exec(output);
      if (line) resolve(Number(line[1]));
    });
    shell.once("exit", () => reject(new Error(`server did not start: ${readTail(logFile)}`)));
  });
  return { shell, pid, exited } satisfies Watched;
}

async function endWatched(watched: Watched | undefined): Promise<void> {
  if (!watched) return;
  watched.shell.stdin?.end();
  await watched.exited;
}

/** The process and every process under it (PostgreSQL's backends), from /proc. */
function withDescendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all = [root];
  for (let index = 0; index < all.length; index += 1) all.push(...(parents.get(all[index] as number) ?? []));
  return all;
}

/** Stops (SIGSTOP) or resumes (SIGCONT) a server and its processes: a server that hangs, without closing a connection. */
function signalAll(pid: number | undefined, signal: "SIGSTOP" | "SIGCONT"): void {
  if (pid === undefined) throw new Error("the server is not running");
  for (const each of withDescendants(pid)) {
    try {
      process.kill(each, signal);
    } catch {
      // ended meanwhile (a backend that finished)
    }
  }
}

function readTail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-20).join("\n");
  } catch {
    return "";
  }
}

/** What the fault test can do to either store. */
interface PrivateServer {
  port: number;
  /** Starts the server again on the same port; it answers when this resolves. */
  start(): Promise<void>;
  /** Makes the server and its children hang (SIGSTOP): connections stay open, nothing is answered. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void;
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

/** The running process of a private store (none while it is stopped), and the folder it keeps its files in. */
class ServerProcess {
  current: Watched | undefined;

  constructor(readonly dir: string) {}

  freeze(): void {
    signalAll(this.current?.pid, "SIGSTOP");
  }

  thaw(): void {
    signalAll(this.current?.pid, "SIGCONT");
  }

  /** Waits until the process has ended. */
  async ended(): Promise<void> {
    await endWatched(this.current);
    this.current = undefined;
  }

  async close(): Promise<void> {
    if (this.current) this.thaw();
    await this.ended();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface PrivateRedis extends PrivateServer {
  /** redis:// URL of the server. */
  url: string;
  /** Ends the server at once (SIGKILL), as a crash would; nothing is saved. */
  crash(): Promise<void>;
}

/**
 * A redis-server without persistence (`--save "" --appendonly no`), as the product's compose file
 * runs it: after a restart it is empty. `extraArgs` go to redis-server (`--requirepass`, say).
 */
export async function startPrivateRedis(extraArgs: string[] = []): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), "auth-faults-redis-"));
  const server = new ServerProcess(dir);
  const port = await freePort();
  const logFile = join(dir, "redis.log");
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    ...extraArgs,
  ];
  const start = async () => {
    server.current = await startWatched(
      ["env"],
      watchdog("redis-server", "TERM"),
      [...args, "--dir", dir],
      logFile,
    );
    await until(`redis on port ${port} did not answer`, () => answers(port), testBudgets.suiteStartMs);
  };
  const crash = async () => {
    if (!server.current) return;
    process.kill(server.current.pid, "SIGKILL");
    await server.ended();
    await until(
      `redis on port ${port} still answers`,
      async () => !(await answers(port)),
      testBudgets.testMs,
    );
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    crash,
    start,
    freeze: () => server.freeze(),
    thaw: () => server.thaw(),
    close: () => server.close(),
  };
}

export interface PrivatePostgres extends PrivateServer {
  /** URL of the `postgres` database as the superuser (trust authentication on loopback). */
  adminUrl: string;
  /** `pg_ctl stop -m immediate`: every server process ends at once, recovery from the WAL at the next start. */
  stopImmediately(): Promise<void>;
}

/** A PostgreSQL 15 cluster made with initdb in a temporary directory, run as the postgres user when we are root. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "auth-faults-pg-"));
  const server = new ServerProcess(dir);
  const asPostgres = isRoot() ? ["runuser", "-u", "postgres", "--"] : ["env"];
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const logFile = join(dir, "postgres.log");
  const port = await freePort();
  const asServerUser = (binary: string, args: string[]) =>
    run(asPostgres[0] as string, [...asPostgres.slice(1), join(postgresBin, binary), ...args]);
  await asServerUser("initdb", [
    "-D",
    data,
    "-A",
    "trust",
    "-U",
    "postgres",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
    "--no-instructions",
  ]);
  const args = [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "max_connections=50",
    "-c",
    "shared_buffers=16MB",
  ];
  const ready = async () => {
    try {
      await run(join(postgresBin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port), "-t", "1"]);
      return true;
    } catch {
      return false;
    }
  };
  const start = async () => {
    // SIGINT is PostgreSQL's fast shutdown.
    server.current = await startWatched(
      asPostgres,
      watchdog(join(postgresBin, "postgres"), "INT"),
      args,
      logFile,
    );
    try {
      await until(`PostgreSQL on port ${port} did not get ready`, ready, testBudgets.suiteStartMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${readTail(logFile)}`);
    }
  };
  const stopImmediately = async () => {
    await asServerUser("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
    await server.ended();
  };
  await start();
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stopImmediately,
    start,
    freeze: () => server.freeze(),
    thaw: () => server.thaw(),
    close: () => server.close(),
  };
}
