import type { PeerCertificate } from "node:tls";
import { AuthError } from "@auth/errors";
import type { Metadata, ServerUnaryCall } from "@grpc/grpc-js";
import { assertAdmin } from "./admin.js";
import type { ServiceDefinition } from "./definition.js";
import { type Caller, callerOf, callers, spiffeIdsOf } from "./tls/spiffe.js";

/**
 * Which callers may call each method of a service: one row per method, the whole table checked at
 * start-up against the service's definition, so that a new RPC without a row fails to boot
 * (docs/security.md, "Trust between the services").
 */
export type AccessTable<D extends ServiceDefinition> = { readonly [K in keyof D]: readonly Caller[] };

/** Throws when the table and the definition disagree: a method without a row, or a row without a method. */
export function checkAccessTable(serviceName: string, definition: ServiceDefinition, table: object): void {
  const methods = Object.keys(definition);
  const rows = Object.keys(table);
  const problems = [
    ...methods.filter((method) => !rows.includes(method)).map((method) => `${method} has no row`),
    ...rows.filter((row) => !methods.includes(row)).map((row) => `${row} is no method of the service`),
    ...Object.entries(table as Record<string, readonly string[]>).flatMap(([row, allowed]) =>
      allowed
        .filter((caller) => !(callers as readonly string[]).includes(caller))
        .map((caller) => `${row} names an unknown caller "${caller}"`),
    ),
  ];
  if (problems.length > 0) {
    throw new Error(`the access table of ${serviceName} does not fit its definition: ${problems.join("; ")}`);
  }
}

/** Who made a call, as far as the transport proves it. */
export interface CallerOfCall {
  /** The caller its verified client certificate names; undefined when it names no known caller. */
  caller: Caller | undefined;
  /** The SPIFFE IDs of its certificate, for the record. */
  spiffeIds: string[];
  /** No TLS at all: only a server started with the development flag takes such calls. */
  plaintext: boolean;
  /** The verified certificate's subject and SHA-256 fingerprint, to name an operator in events. */
  certificate: { subject: string; sha256: string } | undefined;
}

function certificateOf(certificate: PeerCertificate | undefined): CallerOfCall["certificate"] {
  if (!certificate?.fingerprint256) return undefined;
  const subject = Object.entries(certificate.subject ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join(",");
  return { subject, sha256: certificate.fingerprint256.replaceAll(":", "").toLowerCase() };
}

export function callerOfCall(call: ServerUnaryCall<unknown, unknown>): CallerOfCall {
  const auth = call.getAuthContext();
  return {
    caller: callerOf(auth.sslPeerCertificate),
    spiffeIds: spiffeIdsOf(auth.sslPeerCertificate),
    plaintext: auth.transportSecurityType === undefined,
    certificate: certificateOf(auth.sslPeerCertificate),
  };
}

/**
 * Refuses a call its row does not allow, before any handler runs: PERMISSION_DENIED with
 * `caller.forbidden`. Operators also present the deployment's admin token, which the service knows
 * by its SHA-256 only. Over plain text (the
 * development flag, which the process announces at start) there is no caller to check, and only
 * the admin token guards the operators' methods.
 */
export function authorize(
  allowed: readonly Caller[],
  who: CallerOfCall,
  metadata: Metadata,
  adminTokenSha256: string | undefined,
): void {
  const operatorsOnly = allowed.length === 1 && allowed[0] === "operator";
  const needsAdminToken = who.plaintext ? operatorsOnly : who.caller === "operator";
  if (!who.plaintext && (who.caller === undefined || !allowed.includes(who.caller))) {
    throw new AuthError("caller.forbidden", {
      detail: `${who.spiffeIds.join(" ") || "a certificate without a SPIFFE ID"} may not call this method`,
    });
  }
  if (needsAdminToken) {
    if (adminTokenSha256 === undefined)
      throw new AuthError("admin.unauthenticated", { detail: "no admin token here" });
    assertAdmin(metadata, adminTokenSha256);
  }
}
