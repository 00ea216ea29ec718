import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "@auth/runtime";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";

/** Where Debian's nats-server package puts the server (.ci/run installs it). */
export const natsServerPath = "/usr/sbin/nats-server";

export interface RunningNats {
  url: string;
  /** Kills the server at once (SIGKILL), keeping its JetStream files. */
  kill(): Promise<void>;
  /** Starts it again on the same port and files; resolves once JetStream answers. */
  restart(): Promise<void>;
  /** Kills it and removes its files. */
  stop(): Promise<void>;
}

/**
 * A nats-server with JetStream, the tests' own, on a loopback port with its files in a temporary
 * folder. It runs under a shell that kills it once this process's end of the pipe closes, so that
 * no server outlives a test process, however that process ends.
 */
function spawnNatsServer(port: number, dir: string): ChildProcess {
  return spawn(
    "sh",
    [
      "-c",
      '"$0" "$@" & server=$!; cat > /dev/null; kill -9 "$server"; wait "$server"',
      natsServerPath,
      "-a",
      "127.0.0.1",
      "-p",
      String(port),
      "-js",
      "-sd",
      dir,
    ],
    { stdio: ["pipe", "ignore", "ignore"] },
  );
}

/** Until JetStream answers on the port: asked every 100 ms, for as long as a loaded machine may need. */
async function untilAnswers(url: string, withinMs = 60_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      const nc = await connect({ servers: url, maxReconnectAttempts: 0, timeout: 1_000 });
      try {
        await jetstreamManager(nc);
        return;
      } finally {
        await nc.close();
      }
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`nats-server at ${url} did not answer within ${withinMs} ms`);
}

export async function startNatsServer(): Promise<RunningNats> {
  const dir = mkdtempSync(join(tmpdir(), "nats-server-"));
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  let server = spawnNatsServer(port, dir);
  const kill = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.stdin?.end();
    await exited;
  };
  try {
    await untilAnswers(url);
  } catch (error) {
    await kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    kill,
    async restart() {
      server = spawnNatsServer(port, dir);
      await untilAnswers(url);
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
