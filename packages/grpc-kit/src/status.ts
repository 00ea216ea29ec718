import { AuthError, errorCodes, isErrorCode } from "@auth/errors";
import { status as GrpcStatus, Metadata, type ServiceError, type StatusObject } from "@grpc/grpc-js";

/** Trailer that carries the suite's error code from a service to its caller. */
export const errorCodeKey = "x-error-code";
const retryAfterKey = "x-retry-after";

/** What a service answers for an error its handler threw. */
export function toStatus(error: unknown): StatusObject {
  const authError = error instanceof AuthError ? error : new AuthError("internal.error", { cause: error });
  const metadata = new Metadata();
  metadata.set(errorCodeKey, authError.code);
  if (authError.retryAfterSeconds !== undefined) {
    metadata.set(retryAfterKey, String(authError.retryAfterSeconds));
  }
  const details = authError.code === "internal.error" ? "internal error" : authError.message;
  return { code: errorCodes[authError.code].grpc, details, metadata };
}

/** What a caller makes of a failed call: the service's own error, or `service.unavailable`. */
export function fromServiceError(error: ServiceError): AuthError {
  const [code] = error.metadata?.get(errorCodeKey) ?? [];
  if (isErrorCode(code)) {
    const [retryAfter] = error.metadata.get(retryAfterKey);
    return new AuthError(code, {
      detail: error.details,
      retryAfterSeconds: retryAfter === undefined ? undefined : Number(retryAfter),
    });
  }
  if (
    error.code === GrpcStatus.UNAVAILABLE ||
    error.code === GrpcStatus.DEADLINE_EXCEEDED ||
    error.code === GrpcStatus.CANCELLED
  ) {
    return new AuthError("service.unavailable", { detail: error.details, cause: error });
  }
  return new AuthError("internal.error", { detail: error.details, cause: error });
}

/**
 * Whether a failed call went unanswered by the service itself, and how: no connection to it
 * (`unreachable`: refused, a name not resolved, a failed handshake) or no answer before the
 * deadline. undefined for an answer of the service, its own `service.unavailable` included.
 */
export function unanswered(error: unknown): "unreachable" | "deadline" | undefined {
  if (!(error instanceof AuthError) || error.code !== "service.unavailable") return undefined;
  const status = (error.cause as Partial<ServiceError> | undefined)?.code;
  if (status === GrpcStatus.UNAVAILABLE) return "unreachable";
  if (status === GrpcStatus.DEADLINE_EXCEEDED) return "deadline";
  return undefined;
}
