import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { createCertificateAuthority, issueCertificate } from "@auth/grpc-kit/dev-pki";

/** A receiver's own CA and its certificate, for `localhost` and 127.0.0.1: what the test trusts. */
export interface ReceiverTls {
  /** PEM of the CA, to trust through WEBHOOK_CA_FILE. */
  ca: string;
  certificate: string;
  privateKey: string;
}

export async function makeReceiverTls(): Promise<ReceiverTls> {
  const authority = await createCertificateAuthority("webhook receivers' test CA", 1);
  const issued = await issueCertificate(authority, {
    name: "webhook receiver",
    spiffeId: "spiffe://test/webhook-receiver",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
  });
  return { ca: authority.certificate, ...issued };
}

/** A request as the receiver got it. */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * How the receiver answers its n-th request (0 first): a status (and headers), or never ("hang");
 * a promise of it answers once it settles.
 */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | "hang";

export interface Receiver {
  /** https://127.0.0.1:<port>/hook */
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `count` requests have arrived. */
  receivedCount(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTPS server on loopback that records each request and answers it as `answer` says. */
export async function startReceiver(
  tls: ReceiverTls,
  answer: (index: number, request: Received) => Answer | Promise<Answer> = () => ({ status: 204 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: Array<{ count: number; resolve: (requests: Received[]) => void }> = [];
  const server: Server = createServer({ key: tls.privateKey, cert: tls.certificate }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const got = {
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const index = received.push(got) - 1;
      for (const waiter of waiting.filter((w) => received.length >= w.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve([...received]);
      }
      void Promise.resolve(answer(index, got)).then((how) => {
        if (how !== "hang") response.writeHead(how.status, how.headers).end(how.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    port,
    received,
    receivedCount: (count) =>
      received.length >= count
        ? Promise.resolve([...received])
        : new Promise((resolve) => waiting.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
