import { type ErrorCode, errorCodes } from "./codes.js";

export interface AuthErrorOptions {
  /** Fields added to the error envelope, for example `captcha_required`. */
  fields?: Record<string, unknown>;
  /** Seconds the client should wait, sent as `Retry-After`. */
  retryAfterSeconds?: number;
  /** Overrides the table's HTTP status; only the spec's weak-password 422 needs it. */
  httpStatus?: number;
  /** For logs and gRPC status details; never shown to HTTP clients. */
  detail?: string;
  cause?: unknown;
}

/** An error that the suite answers on purpose, identified by its code. */
export class AuthError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, unknown>;
  readonly retryAfterSeconds: number | undefined;
  readonly httpStatus: number;

  constructor(code: ErrorCode, options: AuthErrorOptions = {}) {
    super(options.detail ?? code, { cause: options.cause });
    this.name = "AuthError";
    this.code = code;
    this.fields = options.fields ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.httpStatus = options.httpStatus ?? errorCodes[code].http;
  }
}

/** spec 4.5 rule 3: the HTTP status of a too weak new password, which is `request.validation.failed`. */
export const weakPasswordStatus = 422;

export function weakPasswordError(detail: string, fields?: Record<string, unknown>): AuthError {
  return new AuthError("request.validation.failed", { httpStatus: weakPasswordStatus, detail, fields });
}
