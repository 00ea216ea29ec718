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

/** Why the port cannot be listened on at the host right now (EADDRINUSE, EACCES...), or undefined when it can. */
export function whyNotListenable(port: number, host = "127.0.0.1"): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen(port, host, () => server.close(() => resolve(undefined)));
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
    if ((await whyNotListenable(port)) === undefined) return port;
  }
  throw new Error(`no free port between ${lowest} and ${highest}`);
}

/** `count` numbers as a tuple when `count` is a literal, so that `const [a, b] = await freePorts(2)` types. */
type Ports<Count extends number, Drawn extends number[] = []> = number extends Count
  ? number[]
  : Drawn["length"] extends Count
    ? Drawn
    : Ports<Count, [...Drawn, number]>;

/** `count` distinct ports, each free a moment ago: two draws of freePort can give the same port. */
export async function freePorts<Count extends number>(count: Count): Promise<Ports<Count>> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports] as Ports<Count>;
}
