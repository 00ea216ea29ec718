import type { LoadShape } from "./flows.js";
import type { LoadResult } from "./http-load.js";
import type { Scenario } from "./report.js";

/** The p99 a password login may take at half of saturation (issue 37's target, Keycloak's example SLO). */
export const halfLoadP99TargetMs = 250;

/**
 * Password logins as fast as the connections go (the saturation rate), then arriving at random at
 * half that rate (an open loop), and the p99 of the second's requests: the latency a deployment
 * sized at twice its load sees.
 */
export async function measureHalfLoad(
  measure: (name: string, run: () => Promise<LoadResult>) => Promise<Scenario | undefined>,
  passwordLogins: (shape: LoadShape) => Promise<LoadResult>,
  shape: LoadShape,
): Promise<Scenario[]> {
  const saturated = await measure("half-load: password login, saturated", () => passwordLogins(shape));
  if (!saturated) return [];
  const half = await measure("half-load: password login at half of saturation", () =>
    // saturated.rps counts requests, two a login.
    passwordLogins({ ...shape, arrivalRate: saturated.rps / 2 / 2 }),
  );
  if (!half) return [];
  process.stdout.write(
    `  password logins saturate at ${(saturated.rps / 2).toFixed(1)}/s; at ${(half.rps / 2).toFixed(1)}/s the p99 of their requests is ${half.p99.toFixed(0)} ms (target ≤ ${halfLoadP99TargetMs} ms: ${half.p99 <= halfLoadP99TargetMs ? "met" : "NOT met"})\n`,
  );
  // Two requests make one login.
  return [saturated, half].map((scenario) => ({ ...scenario, rps: scenario.rps / 2 }));
}
