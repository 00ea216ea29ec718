import { connect, createServer, type Socket } from "node:net";

/**
 * A loopback port that passes each connection on to NATS, and that the benchmark can cut: every
 * connection through it dropped and new ones closed at once, so that NATS is unreachable for the
 * suite alone (the machine's NATS and its other clients carry on), until it is opened again.
 */
export interface NatsGate {
  /** NATS's URL with the gate's address in it: the NATS_URL the suite is given. */
  url: string;
  cut(): void;
  open(): void;
  close(): Promise<void>;
}

export async function startNatsGate(natsUrl: string): Promise<NatsGate> {
  const target = new URL(natsUrl);
  const targetPort = Number(target.port || 4222);
  let open = true;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, target.hostname);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = new URL(natsUrl);
  url.hostname = "127.0.0.1";
  url.port = String(typeof address === "object" && address !== null ? address.port : 0);
  return {
    url: url.toString(),
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    open() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
