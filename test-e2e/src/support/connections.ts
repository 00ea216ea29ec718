import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** One established TCP connection on loopback: `<local port>-><remote port>`. */
export type Connection = string;

/** The ports of a gRPC target: `127.0.0.1:50051` or `ipv4:127.0.0.1:1,127.0.0.1:2`. */
export const portsOf = (target: string): number[] =>
  [...target.matchAll(/:(\d+)(?=,|$)/g)].map((match) => Number(match[1]));

/**
 * Watches the established TCP connections to some ports, every 50 ms, from a shell loop of its own
 * (`ss`, which the kernel answers filtered): a connection dropped and made again shows as a new
 * local port. The times are the loop's, so they hold though the loaded machine stalls the test's
 * event loop for seconds.
 */
export function watchConnections(ports: number[]) {
  const filter = ports.map((port) => `dport = :${port}`).join(" or ");
  const loop = spawn(
    "bash",
    [
      "-c",
      `while :; do echo "at $EPOCHREALTIME"; ss -Htn state established "( ${filter} )"; sleep 0.05; done`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  /** The connections of the last whole look, and when it began. */
  let open = new Set<Connection>();
  let lookedAt = 0;
  /** Each connection that closed, and the first look that found it gone (ms since the epoch). */
  const closed = new Map<Connection, number>();
  let looking: { at: number; found: Set<Connection> } | undefined;
  const waiting: Array<{ after: number; resolve: () => void; reject: (error: Error) => void }> = [];
  let stopped = false;
  let failure: Error | undefined;
  loop.once("exit", (code) => {
    if (stopped) return;
    failure = new Error(`the connection watch (bash, ss) ended with code ${code}`);
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  });

  createInterface({ input: loop.stdout }).on("line", (line) => {
    const at = /^at (\d+)[.,](\d{3})/.exec(line);
    if (at) {
      if (looking) {
        for (const connection of open) if (!looking.found.has(connection)) closed.set(connection, looking.at);
        ({ at: lookedAt, found: open } = looking);
        for (const waiter of waiting.filter((waiter) => lookedAt >= waiter.after)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      looking = { at: Number(`${at[1]}${at[2]}`), found: new Set() };
      return;
    }
    const [, , local, remote] = line.trim().split(/\s+/);
    const port = (address = "") => address.slice(address.lastIndexOf(":") + 1);
    looking?.found.add(`${port(local)}->${port(remote)}`);
  });

  return {
    /** Until a whole look has begun at `time` or after (ms since the epoch). */
    lookedAfter: (time: number) =>
      new Promise<void>((resolve, reject) => {
        if (failure) reject(failure);
        else if (lookedAt >= time) resolve();
        else waiting.push({ after: time, resolve, reject });
      }),
    /** The connections open at the last whole look. */
    open: () => [...open],
    /** When each connection that closed was first found gone (ms since the epoch). */
    closedAt: (connection: Connection) => closed.get(connection),
    stop: () => {
      stopped = true;
      loop.kill();
    },
  };
}
