import { type ErrorCode, errorCodes } from "@auth/errors";
import type { Endpoint, ErrorAnswer } from "../endpoint/define.js";
import { statesFor } from "../endpoint/transitions.js";

const tokenErrors: ErrorCode[] = [
  "auth.header.missing",
  "auth.header.invalid",
  "auth.token.invalid",
  "auth.token.expired",
];

/**
 * The checks of the pipeline (http/pipeline.ts), in its order: API key, the client address's rate
 * limit (every endpoint: those without a rate-limit class count apart), token, body (none for a GET).
 */
function pipelineErrors(endpoint: Endpoint): ErrorCode[] {
  const codes: ErrorCode[] = ["auth.apikey.missing", "auth.apikey.invalid", "request.ratelimit.exceeded"];
  if (endpoint.takesToken) codes.push(...tokenErrors);
  if (endpoint.takesToken && !statesFor(endpoint.operation).has("any")) codes.push("auth.session.invalid");
  if (endpoint.method === "POST") codes.push("request.validation.failed");
  return codes;
}

/** An Idempotency-Key used before with another body (http/idempotency.ts). */
const keyReused: ErrorAnswer = { code: "request.validation.failed", status: 422 };

/**
 * Every error the endpoint answers: the pipeline's, its steps', its own, and its answer while the
 * company is suspended (endpoint/define.ts); with its HTTP status from the error table unless its
 * declaration gives one.
 */
export function errorAnswers(endpoint: Endpoint): ErrorAnswer[] {
  const codes = new Set<ErrorCode>([
    ...pipelineErrors(endpoint),
    ...endpoint.steps.flatMap((step) => step.errors),
    ...endpoint.errors.filter((error) => typeof error === "string"),
    ...(endpoint.whileSuspended === "serve" ? [] : [endpoint.whileSuspended]),
    "service.unavailable",
    "internal.error",
  ]);
  const answers = [
    ...[...codes].map((code) => ({ code, status: errorCodes[code].http })),
    ...endpoint.errors.filter((error) => typeof error !== "string"),
  ];
  if (
    endpoint.idempotent &&
    !answers.some(({ code, status }) => code === keyReused.code && status === keyReused.status)
  ) {
    answers.push(keyReused);
  }
  return answers;
}
