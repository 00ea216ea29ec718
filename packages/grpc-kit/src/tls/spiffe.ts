import type { PeerCertificate } from "node:tls";

/**
 * Who may call the suite's gRPC services, by the SPIFFE ID in the URI SAN of the certificate the
 * caller presents: `spiffe://auth-suite/<caller>`, or `spiffe://auth-suite/consumer/<product>` for
 * the products that introspect tokens (docs/security.md, "Trust between the services").
 */
export const callers = [
  "gateway",
  "identity",
  "session",
  "otp",
  "recovery",
  "audit",
  "operator",
  "consumer",
] as const;
export type Caller = (typeof callers)[number];

/** The processes that serve gRPC; each presents `spiffe://auth-suite/<service>` as a server. */
export const grpcServices = ["identity", "session", "otp", "recovery", "disclaimer", "audit"] as const;
export type GrpcServiceName = (typeof grpcServices)[number];

export const trustDomain = "auth-suite";

export function spiffeId(name: string): string {
  return `spiffe://${trustDomain}/${name}`;
}

/** The SPIFFE IDs among a certificate's URI SANs (Node writes them as `URI:spiffe://...`). */
export function spiffeIdsOf(certificate: Pick<PeerCertificate, "subjectaltname"> | undefined): string[] {
  const names = certificate?.subjectaltname?.split(", ") ?? [];
  return names
    .filter((name) => name.startsWith(`URI:spiffe://${trustDomain}/`))
    .map((name) => name.slice("URI:".length));
}

/** The caller a verified client certificate names; undefined for anything else. */
export function callerOf(
  certificate: Pick<PeerCertificate, "subjectaltname"> | undefined,
): Caller | undefined {
  const [id, ...others] = spiffeIdsOf(certificate);
  // A certificate that names several identities names none we can trust.
  if (id === undefined || others.length > 0) return undefined;
  const [role, ...rest] = id.slice(`spiffe://${trustDomain}/`.length).split("/");
  const caller = callers.find((candidate) => candidate === role);
  if (caller === "consumer") return rest.length === 1 && rest[0] ? caller : undefined;
  return caller !== undefined && rest.length === 0 ? caller : undefined;
}
