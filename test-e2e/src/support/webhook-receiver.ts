import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createCertificateAuthority, issueCertificate } from "@auth/grpc-kit/dev-pki";

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  /** The event the body carries (its CloudEvents JSON). */
  event: { id: string; type: string; userid?: string; sessionid?: string };
  status: number;
}

/** What the receiver does with the next request: answer with a status, or never answer. */
export type Reply = number | "hang";

/**
 * A webhook receiver on loopback over HTTPS, under a CA of its own (`caFile`, for the audit
 * service's WEBHOOK_CA_FILE): it answers the replies queued with `reply`, then 204, and keeps
 * every request it got.
 */
export async function startWebhookReceiver(dir: string) {
  const authority = await createCertificateAuthority("webhook receiver CA", 1);
  const served = await issueCertificate(authority, {
    name: "webhook receiver",
    spiffeId: "spiffe://webhook-receiver/test",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
    days: 1,
  });
  const caFile = join(dir, "webhook-receiver-ca.pem");
  writeFileSync(caFile, authority.certificate);
  const received: ReceivedDelivery[] = [];
  const replies: Reply[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer({ key: served.privateKey, cert: served.certificate });
  server.on("request", (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const reply = replies.shift() ?? 204;
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      received.push({ headers, body, event: JSON.parse(body), status: reply === "hang" ? 0 : reply });
      for (const wake of waiters) wake();
      if (reply !== "hang") response.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}/hooks/auth`,
    caFile,
    received,
    reply: (...next: Reply[]) => replies.push(...next),
    /** Resolves with the first deliveries that satisfy `done`, once they have come; fails after `withinMs`. */
    async waitFor<T>(done: (received: ReceivedDelivery[]) => T | undefined, withinMs: number): Promise<T> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const result = done(received);
        if (result !== undefined) return result;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`the receiver got ${received.length} deliveries, not the ones awaited`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
