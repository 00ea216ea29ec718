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
  spiffeIds: readonly string[];
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

function callerOfAuthContext(call: ServerUnaryCall<unknown, unknown>): CallerOfCall {
  const auth = call.getAuthContext();
  return Object.freeze({
    caller: callerOf(auth.sslPeerCertificate),
    spiffeIds: spiffeIdsOf(auth.sslPeerCertificate),
    plaintext: auth.transportSecurityType === undefined,
    certificate: certificateOf(auth.sslPeerCertificate),
  });
}

/**
 * The HTTP/2 session (one connection) a call came on, found through grpc-js's call objects (the
 * call, any interceptors' `nextCall`, the base call's `stream`); undefined where a version of
 * grpc-js keeps it elsewhere, and then the caller is read for each call.
 */
function connectionOf(call: ServerUnaryCall<unknown, unknown>): object | undefined {
  let inner: unknown = (call as { call?: unknown }).call;
  for (let depth = 0; depth < 8 && typeof inner === "object" && inner !== null; depth++) {
    const session: unknown = (inner as { stream?: { session?: unknown } }).stream?.session;
    if (typeof session === "object" && session !== null) return session;
    inner = (inner as { nextCall?: unknown }).nextCall;
  }
  return undefined;
}

/** The caller of each connection, read from its certificate by its first call. */
const callersOfConnections = new WeakMap<object, CallerOfCall>();

/**
 * Who made a call. Node translates the peer's certificate into a new object on every
 * `getPeerCertificate`, a tenth of a busy service's CPU when done for each call; a connection's
 * certificate cannot change while it lasts (HTTP/2 forbids TLS renegotiation, and Node disables it
 * on every HTTP/2 socket), so it is read once per connection (docs/performance.md, "The gateway's
 * own overhead").
 */
export function callerOfCall(call: ServerUnaryCall<unknown, unknown>): CallerOfCall {
  const connection = connectionOf(call);
  const known = connection && callersOfConnections.get(connection);
  if (known) return known;
  const who = callerOfAuthContext(call);
  if (connection) callersOfConnections.set(connection, who);
  return who;
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
