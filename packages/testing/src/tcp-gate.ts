import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A loopback port in front of a store, for tests of what a client does while the store is away:
 * closed until opened, then either passing connections through to the store or "frozen" (accepting
 * connections and answering nothing, as a store that hangs); `cut` drops every open connection, and
 * `hold` holds back the store's replies on the connections passed through (commands still reach the
 * store and run there: a store that stalls, without closing a connection) until `release`.
 */
export interface TcpGate {
  port: number;
  open(mode: "through" | "frozen"): Promise<void>;
  cut(): void;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A free port to start with: taken from the kernel, then let go until open() listens on it. */
async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === "object" && address !== null ? address.port : 0;
}

export async function tcpGate(upstream: { host: string; port: number }): Promise<TcpGate> {
  const port = await freeLoopbackPort();
  const sockets = new Set<Socket>();
  /** The connections to the store, whose replies `hold` holds back. */
  const stores = new Set<Socket>();
  let mode: "through" | "frozen" = "through";
  let held = false;
  let server: Server | undefined;
  const track = (socket: Socket, set: Set<Socket>) => {
    set.add(socket);
    socket.on("close", () => set.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const cut = () => {
    for (const socket of [...sockets, ...stores]) socket.destroy();
  };
  return {
    port,
    async open(as) {
      mode = as;
      if (server) return;
      const listening = createServer((client) => {
        track(client, sockets);
        if (mode === "frozen") return;
        const store = connect(upstream.port, upstream.host);
        track(store, stores);
        client.pipe(store).pipe(client);
        if (held) store.pause();
        client.on("close", () => store.destroy());
        store.on("close", () => client.destroy());
      });
      server = listening;
      await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", resolve));
    },
    cut,
    hold() {
      held = true;
      for (const store of stores) store.pause();
    },
    release() {
      held = false;
      for (const store of stores) store.resume();
    },
    async close() {
      cut();
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}
