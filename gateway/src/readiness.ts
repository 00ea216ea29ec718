import { channelCredentialsOf, type GrpcTransport, type HealthClient, healthClient } from "@auth/grpc-kit";
import type { Logger } from "@auth/runtime";
import { metrics } from "@auth/telemetry";
import type { BackendAddresses } from "./backends.js";

/**
 * The services the gateway cannot work without, and so its readiness: identity (every request's API
 * key) and session (every flow's session). Without otp, recovery, disclaimer or audit only the flows
 * that need them answer 503, and every replica alike: the gateway stays in rotation for the rest, and
 * says which is down in its log and its metrics (docs/operations.md, "Probes").
 */
export const neededForReadiness = [
  "identity",
  "session",
] as const satisfies readonly (keyof BackendAddresses)[];

/** The services /readyz checks without depending on them. */
const reportedOnly = [
  "otp",
  "recovery",
  "disclaimer",
  "audit",
] as const satisfies readonly (keyof BackendAddresses)[];

/** What /readyz names while the rate limits' Redis has not answered yet. */
export const rateLimitStoreNotReached = "the rate limits' redis (not reached yet)";

/**
 * Health clients of every service, each on a channel it keeps (one TLS handshake, not one per
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
  const clients = [...neededForReadiness, ...reportedOnly].map(
    (name) =>
      [name, healthClient(addresses[name], channelCredentialsOf(transport, name), keepaliveTimeoutMs)] as [
        keyof BackendAddresses,
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
  // /readyz tells a client no more than 503; the log says why, each time that changes, and the
  // metrics which service answered each check.
  let lastState = "";
  return {
    /**
     * The services /readyz depends on that do not answer SERVING within the deadline, and the Redis
     * not reached yet; the others are checked too, for the log and the metrics.
     */
    async notServing(deadlineMs: number): Promise<string[]> {
      const results = await Promise.all(
        clients.map(async ([name, client]) => [name, await client.check("", deadlineMs)] as const),
      );
      for (const [name, status] of results)
        metrics.serviceServing.set({ service: name }, status === "SERVING" ? 1 : 0);
      const down = results.filter(([, status]) => status !== "SERVING").map(([name]) => name);
      const needed: readonly string[] = neededForReadiness;
      const services = down.filter((name) => needed.includes(name));
      const reasons = storeReached ? services : [...services, rateLimitStoreNotReached];
      const degraded = down.filter((name) => !needed.includes(name));
      const state = JSON.stringify([reasons, degraded]);
      if (state !== lastState) {
        lastState = state;
        if (reasons.length > 0) logger.warn({ notServing: reasons, degraded }, "not ready");
        else if (degraded.length > 0) logger.warn({ degraded }, "ready; only the flows that need these fail");
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
