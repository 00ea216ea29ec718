import { status as GrpcStatus } from "@grpc/grpc-js";

/**
 * Every error code the suite answers, with its HTTP status (spec section 7 and docs/api-contract.md,
 * "Error codes and HTTP statuses") and the
 * gRPC status it travels as between the services and the gateway.
 */
export const errorCodes = {
  "auth.apikey.missing": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.apikey.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.header.missing": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.header.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.token.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.token.expired": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.session.invalid": { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  "auth.loginid.notfound": { http: 404, grpc: GrpcStatus.NOT_FOUND },
  "auth.user.restricted": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "auth.user.closed": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "auth.user.denied": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "auth.restricted": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "auth.password.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.credentials.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.captcha.missing": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "auth.captcha.invalid": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "auth.otp.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.backupcode.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.disclaimer.invalid": { http: 403, grpc: GrpcStatus.FAILED_PRECONDITION },
  "auth.oauth.failed": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.oauth.notfound": { http: 404, grpc: GrpcStatus.NOT_FOUND },
  "auth.controlanswer.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "recovery.method.restricted": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  "recovery.phone.notset": { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  "recovery.email.notset": { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  "recovery.question.notset": { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  "request.validation.failed": { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  // Beyond the spec (docs/api-contract.md, "Error codes and HTTP statuses", and docs/decisions.md).
  "auth.session.notfound": { http: 404, grpc: GrpcStatus.NOT_FOUND },
  "auth.reauthentication.required": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  // A passkey's assertion or registration that did not verify (docs/decisions.md, "Passkeys").
  "auth.passkey.invalid": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "auth.passkey.notfound": { http: 404, grpc: GrpcStatus.NOT_FOUND },
  // A new phone or e-mail that is another user's login ID (docs/api-contract.md, "Changing the
  // phone or the e-mail"): never says whose.
  "auth.contact.unavailable": { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  "request.ratelimit.exceeded": { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  "request.route.notfound": { http: 404, grpc: GrpcStatus.UNIMPLEMENTED },
  "request.method.notallowed": { http: 405, grpc: GrpcStatus.UNIMPLEMENTED },
  "service.unavailable": { http: 503, grpc: GrpcStatus.UNAVAILABLE },
  "internal.error": { http: 500, grpc: GrpcStatus.INTERNAL },
  // Between the services only: a caller whose certificate the method's access table does not allow.
  "caller.forbidden": { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  // Administrative gRPC calls only.
  "admin.unauthenticated": { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  "resource.notfound": { http: 404, grpc: GrpcStatus.NOT_FOUND },
  "resource.exists": { http: 409, grpc: GrpcStatus.ALREADY_EXISTS },
} as const satisfies Record<string, { http: number; grpc: GrpcStatus }>;

export type ErrorCode = keyof typeof errorCodes;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorCodes, value);
}
