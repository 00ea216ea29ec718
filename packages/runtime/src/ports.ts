import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The lowest port the kernel hands out for outgoing connections (Linux; 32768 elsewhere). */
function ephemeralPortsStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return Number(low) || 32_768;
  } catch {
    return 32_768;
  }
}

const lowest = 20_000;
const highest = Math.max(lowest + 1_000, ephemeralPortsStart());

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A port that was free on 127.0.0.1 a moment ago, chosen below the kernel's range for outgoing
 * connections: a port from that range could be taken by a client socket before the process that
 * was meant to listen on it starts.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port between ${lowest} and ${highest}`);
}
