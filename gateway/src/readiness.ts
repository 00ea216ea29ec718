import { channelCredentialsOf, type GrpcTransport, type HealthClient, healthClient } from "@auth/grpc-kit";
import type { BackendAddresses } from "./backends.js";

/** Health clients of the five services, each on a channel it keeps (one TLS handshake, not one per probe). */
export function backendHealth(addresses: BackendAddresses, transport: GrpcTransport) {
  const clients = Object.entries(addresses).map(
    ([name, address]) =>
      [name, healthClient(address, channelCredentialsOf(transport, name as keyof BackendAddresses))] as [
        string,
        HealthClient,
      ],
  );
  return {
    /** The services that do not answer SERVING within the deadline. */
    async notServing(deadlineMs: number): Promise<string[]> {
      const results = await Promise.all(
        clients.map(async ([name, client]) => [name, await client.check("", deadlineMs)] as const),
      );
      return results.filter(([, status]) => status !== "SERVING").map(([name]) => name);
    },
    close: () => {
      for (const [, client] of clients) client.close();
    },
  };
}

export type BackendHealth = ReturnType<typeof backendHealth>;
