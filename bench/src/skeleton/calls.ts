import { type ComparedFlow, requestsPerFlow } from "../flows.js";
import type { SkeletonMethod } from "./messages.js";

/**
 * The gRPC calls the product makes for each HTTP request of the compared flows, which the skeleton
 * makes too: the one place that says them. It must follow the product's flows; the benchmark checks
 * it against the product's counters of the same run and says where they part (docs/performance.md,
 * "Against a skeleton and better-auth").
 */
export const gatewayCalls: Record<"login" | "checkpassword" | "checkcredentials", SkeletonMethod[]> = {
  // The benchmark's company has no disclaimer: the gateway asks the disclaimer service nothing
  // (docs/decisions.md, "A company without disclaimers").
  login: ["findUser", "createSession"],
  checkpassword: ["introspectSession", "verifyPassword", "advanceSession"],
  checkcredentials: ["verifyCredentials", "createSession"],
};

/** The calls a service makes while it serves one (identity reserves the check of a secret it compares). */
export const nestedCalls: Partial<Record<SkeletonMethod, SkeletonMethod[]>> = {
  verifyPassword: ["reserveSecretCheck"],
  verifyCredentials: ["reserveSecretCheck"],
};

/** The HTTP requests of each compared flow, in order. */
export const stepsOfFlow: Record<ComparedFlow, Array<keyof typeof gatewayCalls>> = {
  identify: ["login"],
  "password login": ["login", "checkpassword"],
  checkcredentials: ["checkcredentials"],
};

/** Every gRPC call one request makes, by method: the gateway's and those its callees make. */
function callsOf(method: SkeletonMethod): SkeletonMethod[] {
  return [method, ...(nestedCalls[method] ?? []).flatMap(callsOf)];
}

/** The skeleton's gRPC calls per HTTP request of a flow, by method (as the product's counters count them). */
export function skeletonCallsPerRequest(flow: ComparedFlow): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of stepsOfFlow[flow])
    for (const method of gatewayCalls[step].flatMap(callsOf)) counts[method] = (counts[method] ?? 0) + 1;
  const requests = requestsPerFlow[flow];
  return Object.fromEntries(Object.entries(counts).map(([method, count]) => [method, count / requests]));
}

/**
 * The methods whose calls per request differ by half a call or more between the product (its
 * counters: calls that caches mostly save count a fraction) and the skeleton's table.
 */
export function tableMismatches(
  product: Record<string, number>,
  skeleton: Record<string, number>,
): Array<{ method: string; product: number; skeleton: number }> {
  return [...new Set([...Object.keys(product), ...Object.keys(skeleton)])]
    .map((method) => ({ method, product: product[method] ?? 0, skeleton: skeleton[method] ?? 0 }))
    .filter(({ product, skeleton }) => Math.abs(product - skeleton) >= 0.5);
}
