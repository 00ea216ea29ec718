import { randomBytes } from "node:crypto";
import type { RequestOrigin } from "@auth/grpc-kit";
import { activeTraceId } from "@auth/telemetry";
import type { Request } from "express";

/**
 * What the services put in the events of a request (docs/decisions.md, "Security events"): its
 * trace id, the span's when tracing is on (W3C: lowercase hex), else a random one of the same
 * form, so that the services' check takes either; and the client's address as express reads it
 * (honouring TRUST_PROXY).
 */
export function requestOriginOf(request: Request): RequestOrigin {
  return {
    traceId: activeTraceId()?.toLowerCase() ?? randomBytes(16).toString("hex"),
    clientAddress: request.ip ?? "",
  };
}
