import { channelCredentialsOf, type GrpcTransport, type HealthClient, healthClient } from "@auth/grpc-kit";
import type { Logger } from "@auth/runtime";
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

/** What /readyz names while the rate limits' Redis has not answered yet. */
export const rateLimitStoreNotReached = "the rate limits' redis (not reached yet)";

/**
 * Health clients of those services, each on a channel it keeps (one TLS handshake, not one per
 * probe); and the rate limits' Redis, when there is one, until it has answered once
 * (docs/operations.md, "Starting without a store"). Later Redis outages leave readiness alone: the
 * rate limits then count in the process (http/rate-limits.ts) on every replica alike.
 */
export function backendHealth(
  addresses: BackendAddresses,
  transport: GrpcTransport,
  {
    rateLimitStore,
    keepaliveTimeoutMs,
    logger,
  }: { rateLimitStore?: Promise<void>; keepaliveTimeoutMs: number; logger: Logger },
) {
  const clients = neededForReadiness.map(
    (name) =>
      [name, healthClient(addresses[name], channelCredentialsOf(transport, name), keepaliveTimeoutMs)] as [
        string,
        HealthClient,
      ],
  );
  let storeReached = rateLimitStore === undefined;
  rateLimitStore?.then(
    () => {
      storeReached = true;
    },
    () => {
      // Closed before Redis answered: the gateway is stopping.
    },
  );
  // /readyz tells a client no more than 503; the log says why, each time that changes.
  let lastReasons = "";
  return {
    /** The services that do not answer SERVING within the deadline, and the Redis not reached yet. */
    async notServing(deadlineMs: number): Promise<string[]> {
      const results = await Promise.all(
        clients.map(async ([name, client]) => [name, await client.check("", deadlineMs)] as const),
      );
      const services = results.filter(([, status]) => status !== "SERVING").map(([name]) => name);
      const reasons = storeReached ? services : [...services, rateLimitStoreNotReached];
      if (reasons.join(", ") !== lastReasons) {
        lastReasons = reasons.join(", ");
        if (reasons.length > 0) logger.warn({ notServing: reasons }, "not ready");
        else logger.info("ready");
      }
      return reasons;
    },
    close: () => {
      for (const [, client] of clients) client.close();
    },
  };
}

export type BackendHealth = ReturnType<typeof backendHealth>;
