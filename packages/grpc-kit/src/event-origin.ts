import type { EventOrigin } from "@auth/events";
import { ActorKind } from "@auth/proto/events";
import { hasControlCharacter } from "@auth/runtime";
import type { Metadata } from "@grpc/grpc-js";
import type { CallContext } from "./handlers.js";
import { spiffeId } from "./tls/spiffe.js";

/**
 * The metadata the gateway sends with each call on behalf of an end user's request, for the
 * events the service records (docs/decisions.md, "Security events"). Facts of the request, not of
 * any service's data: a service takes them only from the gateway.
 */
export const traceIdKey = "x-auth-trace-id";
export const clientAddressKey = "x-auth-client-address";

function metadataText(metadata: Metadata, key: string, pattern: RegExp): string {
  const [value] = metadata.get(key);
  return typeof value === "string" && pattern.test(value) && !hasControlCharacter(value) ? value : "";
}

/**
 * Who made the change a call asks for, and where the request came from: an operator by the
 * certificate it presented; else the end user (`userId`, when the service knows it) or the suite.
 * Trace id and client address are taken from the gateway only.
 */
export function eventOriginOf(context: CallContext, userId?: string): EventOrigin {
  const fromGateway = context.caller === "gateway" || context.plaintext;
  const origin = {
    traceId: fromGateway ? metadataText(context.metadata, traceIdKey, /^[0-9a-f]{32}$/) : "",
    clientAddress: fromGateway ? metadataText(context.metadata, clientAddressKey, /^[^\s]{1,100}$/) : "",
  };
  if (context.caller === "operator") {
    return {
      ...origin,
      actor: {
        kind: ActorKind.OPERATOR,
        id: spiffeId("operator"),
        certificateSubject: context.certificate?.subject ?? "",
        certificateSha256: context.certificate?.sha256 ?? "",
      },
    };
  }
  const kind = userId ? ActorKind.USER : ActorKind.SYSTEM;
  return { ...origin, actor: { kind, id: userId ?? "", certificateSubject: "", certificateSha256: "" } };
}
