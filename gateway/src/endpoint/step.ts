import type { ErrorCode } from "@auth/errors";

/** A step of a flow that refuses requests: it declares every error code it may answer. */
export interface Step {
  readonly errors: readonly ErrorCode[];
}

/**
 * Declares a step with the codes it may throw (docs/api-contract.md, "Error codes and HTTP
 * statuses"): an endpoint lists the steps it runs, and its OpenAPI error list is derived from them
 * (api/endpoint-errors.ts). A step that runs other steps lists theirs with `codesOf`.
 */
export function step<Run extends (...args: never[]) => unknown>(
  errors: readonly ErrorCode[],
  run: Run,
): Run & Step {
  return Object.assign(run, { errors });
}

/** The codes of the steps given, each once. */
export function codesOf(...steps: readonly (Step | readonly ErrorCode[])[]): ErrorCode[] {
  return [...new Set(steps.flatMap((given) => ("errors" in given ? given.errors : given)))];
}
