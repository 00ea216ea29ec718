import type { FlowContext } from "./endpoint/context.js";

/** The security events (docs/api-contract.md, "Security events"). */
export type SecurityEvent =
  | "login.succeeded"
  | "login.failed"
  | "otp.sent"
  | "password.changed"
  | "recovery.started"
  | "recovery.finished"
  | "session.revoked"
  | "disclaimer.accepted"
  | "totp.enrolled"
  | "passkey.enrolled"
  | "passkey.removed"
  | "backupcodes.generated";

/**
 * Writes a security event as one structured log line with the request's trace id. Never a secret:
 * ids, states and counts only.
 */
export function securityEvent(
  context: FlowContext,
  event: SecurityEvent,
  fields: Record<string, unknown> = {},
): void {
  context.log.info(
    {
      securityEvent: event,
      operation: context.operation,
      companyId: context.company.id,
      clientAddress: context.clientAddress,
      traceId: context.traceId,
      ...fields,
    },
    "security event",
  );
}
