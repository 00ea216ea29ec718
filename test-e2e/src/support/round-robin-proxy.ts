import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One address in front of several gateways: each request goes to the next one in turn. */
export class RoundRobinProxy {
  readonly served: number[];
  #next = 0;

  private constructor(
    readonly url: string,
    private readonly server: Server,
    targets: string[],
  ) {
    this.served = targets.map(() => 0);
  }

  static async start(targets: string[]): Promise<RoundRobinProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const proxy = new RoundRobinProxy(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      server,
      targets,
    );
    server.on("request", (incoming, outgoing) => {
      const index = proxy.#next++ % targets.length;
      proxy.served[index] = (proxy.served[index] ?? 0) + 1;
      const target = new URL(incoming.url ?? "/", targets[index]);
      const upstream = forward(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on("error", () => outgoing.writeHead(502).end());
      incoming.pipe(upstream);
    });
    return proxy;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
