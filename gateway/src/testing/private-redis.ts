import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@auth/runtime";

/** A redis-server of a test's own, which the test may freeze, crash and start again. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** Makes the server hang (SIGSTOP): connections stay open, commands wait unanswered. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT): it runs the commands that waited. */
  thaw(): void;
  /** Ends the server at once (SIGKILL), as a crash would: its connections break, nothing is kept. */
  crash(): Promise<void>;
  /** Starts the server again on the same port, empty; resolves once it answers a PING. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function redisServerMissing(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" });
    return false;
  } catch {
    return true;
  }
}

/** Whether the port answers a PING. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => socket.write("PING\r\n"));
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once("data", (reply) => {
      socket.destroy();
      resolve(reply.toString().startsWith("+PONG"));
    });
    socket.once("close", () => resolve(false));
    socket.once("error", () => resolve(false));
  });
}

/**
 * Without persistence, as the product's compose file runs Redis: after a crash it starts empty.
 * Each run is under a shell that ends the server once this process's end of the pipe closes, so
 * that no server outlives the test process, however that process ends (a frozen one is let go on
 * first).
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), "gateway-redis-"));
  const port = await freePort();
  const watchdog =
    'redis-server "$@" >/dev/null & server=$!; echo "$server"; cat > /dev/null; ' +
    'kill -CONT "$server" 2>/dev/null; kill "$server" 2>/dev/null; wait "$server"';
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  let run: { shell: ChildProcess; pid: number; exited: Promise<void> } | undefined;

  const start = async () => {
    const shell = spawn("sh", ["-c", watchdog, "sh", ...args, "--dir", dir], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const exited = new Promise<void>((resolve) => shell.once("exit", () => resolve()));
    const pid = await new Promise<number>((resolve, reject) => {
      shell.stdout.once("data", (line: Buffer) => resolve(Number(line.toString().trim())));
      shell.once("exit", () => reject(new Error("redis-server did not start")));
    });
    run = { shell, pid, exited };
    const deadline = Date.now() + 60_000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const end = async () => {
    run?.shell.stdin?.end();
    await run?.exited;
    run = undefined;
  };
  const signal = (name: NodeJS.Signals) => {
    if (!run) throw new Error("the server is not running");
    process.kill(run.pid, name);
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    freeze: () => signal("SIGSTOP"),
    thaw: () => signal("SIGCONT"),
    crash: async () => {
      signal("SIGKILL");
      await end();
    },
    start,
    close: async () => {
      await end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
