import { connect, createServer, type Socket } from "node:net";

/** A loopback port that passes each connection on to a port named later, and that can be cut. */
export interface Relay {
  port: number;
  passTo(port: number, host?: string): void;
  /** Drops every connection through it, and closes new ones at once until `passTo` is called again. */
  cut(): void;
  close(): Promise<void>;
}

export async function startRelay(): Promise<Relay> {
  let target: { port: number; host: string } | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    passTo(port, host = "127.0.0.1") {
      target = { port, host };
    },
    cut() {
      target = undefined;
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
