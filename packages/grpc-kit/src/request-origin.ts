import { Metadata } from "@grpc/grpc-js";
import { clientAddressKey, traceIdKey } from "./event-origin.js";

/** What the gateway knows of the end user's HTTP request, for the events the services record. */
export interface RequestOrigin {
  /** The request's W3C trace id: 32 lowercase hex digits. */
  traceId: string;
  /** The client's address as the gateway saw it. */
  clientAddress: string;
}

/**
 * The metadata of every call made for one request: its trace id and client address
 * (docs/decisions.md, "Security events"). Made once per request and given to each of its calls
 * (CallOptions.metadata); grpc-js copies it when a call starts, so the calls share it.
 */
export function requestMetadata(origin: RequestOrigin): Metadata {
  const metadata = new Metadata();
  if (origin.traceId) metadata.set(traceIdKey, origin.traceId);
  if (origin.clientAddress) metadata.set(clientAddressKey, origin.clientAddress);
  return metadata;
}
