import type { AccessTable } from "@auth/grpc-kit";
import type { TokenIntrospectionServiceService } from "@auth/proto/introspection";
import type { SessionServiceService } from "@auth/proto/session";

/**
 * Who may call what of the session process, by the SPIFFE ID of the caller's certificate
 * (docs/security.md, "Trust between the services"). Operators also present the admin token.
 */
export const sessionAccess: AccessTable<typeof SessionServiceService> = {
  createSession: ["gateway"],
  introspectSession: ["gateway"],
  advanceSession: ["gateway"],
  revokeSession: ["gateway", "operator"],
  // Identity too: a change of a user's second factor ends the user's sessions.
  revokeUserSessions: ["gateway", "identity", "operator"],
  claimCredentialChange: ["gateway"],
  // Identity's SetPassword writes only for a session claimed for the change: it asks whose it is.
  getCredentialChange: ["identity"],
  listOwnSessions: ["gateway"],
  endOwnSessions: ["gateway"],
  listUserSessions: ["operator"],
  getCheckBudget: ["gateway"],
  reserveSecretCheck: ["gateway", "identity"],
  reportSecretCheck: ["gateway", "identity"],
  forgetFailedChecks: ["gateway"],
  // The federated logins identity verified (ExchangeOAuthCode): no one else may state one.
  recordFederatedLogin: ["identity"],
};

/** The read-only contract of the company's other products: the one service a consumer may call. */
export const introspectionAccess: AccessTable<typeof TokenIntrospectionServiceService> = {
  introspectToken: ["consumer", "operator"],
};
