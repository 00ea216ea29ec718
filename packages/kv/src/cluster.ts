import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, freePorts } from "@auth/runtime";
import { Redis } from "ioredis";

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RunningCluster {
  nodes: Array<{ host: string; port: number }>;
  stop(): void;
}

/**
 * Until the server on the port passes the check: asked every 100 ms, for as long as a loaded
 * machine may need to start it (and a cluster to agree on its slots).
 */
async function untilAnswers(
  port: number,
  check: (redis: Redis) => Promise<boolean>,
  withinMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const redis = new Redis({
      port,
      host: "127.0.0.1",
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on("error", () => {});
    try {
      await redis.connect();
      if (await check(redis)) return;
    } catch {
      // not up yet
    } finally {
      redis.disconnect();
    }
    await sleep(100);
  }
  throw new Error(`redis on port ${port} did not get ready within ${withinMs} ms`);
}

/**
 * A redis-server of the tests' own on a loopback port, without persistence, in a folder of its own.
 * It runs under a shell that stops it once this process's end of the pipe closes, and then removes
 * its folder, so that no server or folder outlives a test process, however that process ends.
 */
function spawnRedisServer(port: number, args: string[]): ChildProcess {
  const dir = mkdtempSync(join(tmpdir(), "redis-server-"));
  return spawn(
    "sh",
    [
      "-c",
      'dir=$1; shift; redis-server "$@" --dir "$dir" & server=$!; cat > /dev/null; kill "$server"; wait "$server"; rm -rf "$dir"',
      "sh",
      dir,
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      ...args,
    ],
    // A process group of its own: a test runner that ends the test process's group (turbo does)
    // would kill the shell before it removed the folder.
    { stdio: ["pipe", "ignore", "ignore"], detached: true },
  );
}

/** A standalone redis-server of the tests' own (for example with ACL users: `--user`, rule). */
export async function startRedisServer(args: string[] = []): Promise<RunningCluster> {
  const port = await freePort();
  const server = spawnRedisServer(port, args);
  const stop = () => server.stdin?.end();
  try {
    await untilAnswers(port, async (redis) => (await redis.ping()) === "PONG");
  } catch (error) {
    stop();
    throw error;
  }
  return { nodes: [{ host: "127.0.0.1", port }], stop };
}

/** A real Redis Cluster of `masters` redis-server processes on loopback ports, for the contract suites. */
export async function startRedisCluster(masters = 3, args: string[] = []): Promise<RunningCluster> {
  // Each node's cluster bus gets a free port of its own: by default it is the port + 10,000, which
  // no one checked and which may fall in the kernel's range for outgoing connections.
  const chosen = await freePorts(2 * masters);
  const [ports, busPorts] = [chosen.slice(0, masters), chosen.slice(masters)];
  const servers = ports.map((port, index) =>
    spawnRedisServer(port, [
      "--cluster-enabled",
      "yes",
      "--cluster-port",
      String(busPorts[index]),
      "--cluster-config-file",
      `nodes-${port}.conf`,
      "--cluster-node-timeout",
      "2000",
      ...args,
    ]),
  );
  const stop = () => {
    for (const server of servers) server.stdin?.end();
  };
  try {
    await Promise.all(
      ports.map((port) => untilAnswers(port, async (redis) => (await redis.ping()) === "PONG")),
    );
    await run("redis-cli", [
      "--cluster",
      "create",
      ...ports.map((port) => `127.0.0.1:${port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    await Promise.all(
      ports.map((port) =>
        untilAnswers(port, async (redis) => String(await redis.cluster("INFO")).includes("cluster_state:ok")),
      ),
    );
  } catch (error) {
    stop();
    throw error;
  }
  return { nodes: ports.map((port) => ({ host: "127.0.0.1", port })), stop };
}
