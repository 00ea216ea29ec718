import { type ErrorCode, errorCodes, weakPasswordStatus } from "@auth/errors";
import type { Endpoint } from "../flows/endpoint.js";
import { type Operation, statesFor } from "../flows/transitions.js";
import { rateLimited } from "../http/rate-limits.js";

export interface ErrorAnswer {
  code: ErrorCode;
  status: number;
}

const userStatus: ErrorCode[] = ["auth.user.restricted", "auth.user.closed", "auth.user.denied"];

/**
 * What each endpoint's flow answers beyond the checks every request goes through (spec section 4
 * with docs/api-contract.md, "Requests and responses"): the business rules.
 */
const flowErrors: Record<Operation, readonly ErrorCode[]> = {
  login: ["auth.restricted", "auth.loginid.notfound", ...userStatus],
  checkpassword: [
    "auth.restricted",
    "auth.captcha.missing",
    "auth.captcha.invalid",
    "auth.disclaimer.invalid",
    "auth.password.invalid",
    ...userStatus,
  ],
  checkcredentials: [
    "auth.restricted",
    "auth.captcha.missing",
    "auth.captcha.invalid",
    "auth.credentials.invalid",
    ...userStatus,
    "auth.disclaimer.invalid",
  ],
  checkotp: [
    "auth.restricted",
    ...userStatus,
    "auth.disclaimer.invalid",
    "auth.otp.invalid",
    "auth.backupcode.invalid",
  ],
  renewotp: userStatus,
  setpassword: userStatus,
  oauth: ["auth.oauth.failed", "auth.oauth.notfound", ...userStatus],
  acceptdisclaimers: ["auth.restricted", ...userStatus, "auth.disclaimer.invalid"],
  logout: [],
  "recovery/recover": [
    "auth.captcha.invalid",
    "auth.loginid.notfound",
    ...userStatus,
    "recovery.method.restricted",
    "recovery.phone.notset",
    "recovery.email.notset",
    "recovery.question.notset",
  ],
  "recovery/checkotp": [...userStatus, "auth.otp.invalid"],
  "recovery/renewotp": userStatus,
  "recovery/checkquestion": [...userStatus, "auth.controlanswer.invalid"],
  // The link's token is checked by the flow: the endpoint takes no Authorization header.
  "recovery/checklink": ["auth.token.invalid", "auth.token.expired", ...userStatus],
};

const tokenErrors: ErrorCode[] = [
  "auth.header.missing",
  "auth.header.invalid",
  "auth.token.invalid",
  "auth.token.expired",
];

/** The checks of the pipeline (http/pipeline.ts), in its order: API key, token, rate limit, body. */
function pipelineErrors(endpoint: Endpoint): ErrorCode[] {
  const codes: ErrorCode[] = ["auth.apikey.missing", "auth.apikey.invalid"];
  if (endpoint.takesToken) codes.push(...tokenErrors);
  if (endpoint.takesToken && !statesFor(endpoint.operation).has("any")) codes.push("auth.session.invalid");
  if (rateLimited[endpoint.operation]) codes.push("request.ratelimit.exceeded");
  codes.push("request.validation.failed");
  return codes;
}

/** Answers whose status is not the error table's. */
const otherStatuses: Partial<Record<Operation, ErrorAnswer[]>> = {
  setpassword: [{ code: "request.validation.failed", status: weakPasswordStatus }],
};

/** An Idempotency-Key used before with another body (http/idempotency.ts). */
const keyReused: ErrorAnswer = { code: "request.validation.failed", status: 422 };

/** Every error the endpoint answers, with its HTTP status from the error table. */
export function errorAnswers(endpoint: Endpoint): ErrorAnswer[] {
  const codes = new Set<ErrorCode>([
    ...pipelineErrors(endpoint),
    ...flowErrors[endpoint.operation],
    "service.unavailable",
    "internal.error",
  ]);
  const answers = [
    ...[...codes].map((code) => ({ code, status: errorCodes[code].http })),
    ...(otherStatuses[endpoint.operation] ?? []),
  ];
  if (
    endpoint.idempotent &&
    !answers.some(({ code, status }) => code === keyReused.code && status === keyReused.status)
  ) {
    answers.push(keyReused);
  }
  return answers;
}
