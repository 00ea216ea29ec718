import { checkHealth } from "@auth/grpc-kit";
import type { BackendAddresses } from "./backends.js";

/** Ready when every service answers SERVING to the standard health check. */
export async function backendsReady(addresses: BackendAddresses, deadlineMs: number): Promise<string[]> {
  const results = await Promise.all(
    Object.entries(addresses).map(
      async ([name, address]) => [name, await checkHealth(address, "", deadlineMs)] as const,
    ),
  );
  return results.filter(([, status]) => status !== "SERVING").map(([name]) => name);
}
