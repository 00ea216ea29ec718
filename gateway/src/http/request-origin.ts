import { randomUUID } from "node:crypto";
import type { RequestOrigin } from "@auth/grpc-kit";
import { activeTraceId } from "@auth/telemetry";
import type { Request } from "express";

/**
 * What the services put in the events of a request (docs/decisions.md, "Security events"): its
 * trace id, the span's when tracing is on (W3C: lowercase hex), else a random one of the same
 * form, so that the services' check takes either; and the client's address as express reads it
 * (honouring TRUST_PROXY). The random one is a UUID's 32 hex digits (122 random bits): randomUUID
 * draws from a buffer it fills in batches, where randomBytes asks the system on every request.
 */
export function requestOriginOf(request: Request): RequestOrigin {
  return {
    traceId: activeTraceId()?.toLowerCase() ?? randomUUID().replaceAll("-", ""),
    clientAddress: request.ip ?? "",
  };
}
