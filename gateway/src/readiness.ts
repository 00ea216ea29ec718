import { channelCredentialsOf, type GrpcTransport, type HealthClient, healthClient } from "@auth/grpc-kit";
import type { BackendAddresses } from "./backends.js";

/**
 * The services the gateway cannot work without, and so its readiness: identity (every request's API
 * key) and session (every flow's session). Without otp, recovery or disclaimer only the flows that
 * need them answer 503; the gateway stays in rotation for the rest (docs/operations.md, "Probes").
 */
export const neededForReadiness = [
  "identity",
  "session",
] as const satisfies readonly (keyof BackendAddresses)[];

/** Health clients of those services, each on a channel it keeps (one TLS handshake, not one per probe). */
export function backendHealth(addresses: BackendAddresses, transport: GrpcTransport) {
  const clients = neededForReadiness.map(
    (name) =>
      [name, healthClient(addresses[name], channelCredentialsOf(transport, name))] as [string, HealthClient],
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
