import { AsyncLocalStorage } from "node:async_hooks";
import type { Metadata } from "@grpc/grpc-js";
import { clientAddressKey, traceIdKey } from "./event-origin.js";

/** What the gateway knows of the end user's HTTP request, for the events the services record. */
export interface RequestOrigin {
  /** The request's W3C trace id: 32 lowercase hex digits. */
  traceId: string;
  /** The client's address as the gateway saw it. */
  clientAddress: string;
}

const requestOrigin = new AsyncLocalStorage<RequestOrigin>();

/**
 * Runs `work` as serving one request: every call it makes through a service client, directly or
 * after any number of awaits, carries the request's trace id and client address
 * (docs/decisions.md, "Security events").
 */
export function withRequestOrigin<T>(origin: RequestOrigin, work: () => T): T {
  return requestOrigin.run(origin, work);
}

/** Adds the origin of the request under way, when there is one, to a call's metadata. */
export function addRequestOrigin(metadata: Metadata): Metadata {
  const origin = requestOrigin.getStore();
  if (origin?.traceId) metadata.set(traceIdKey, origin.traceId);
  if (origin?.clientAddress) metadata.set(clientAddressKey, origin.clientAddress);
  return metadata;
}
