import { AuthError } from "@auth/errors";
import type { AccessTable, CallContext } from "@auth/grpc-kit";
import type { TokenIntrospectionServiceService } from "@auth/proto/introspection";
import type { SessionServiceService } from "@auth/proto/session";
import type { SecretKind } from "./store/check-budget.js";

/**
 * Who may call what of the session process, by the SPIFFE ID of the caller's certificate
 * (docs/security.md, "Trust between the services"). Operators also present the admin token.
 */
export const sessionAccess: AccessTable<typeof SessionServiceService> = {
  createSession: ["gateway"],
  // Identity too: a change of address is the token's user's (BeginContactChange).
  introspectSession: ["gateway", "identity"],
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
  // Identity runs the WebAuthn ceremonies: the challenges are its, and so is what an assertion proved.
  issuePasskeyChallenge: ["identity"],
  takePasskeyChallenge: ["identity"],
  recordPasskeyProof: ["identity"],
};

/**
 * Who may reserve checks of which kind of secret (ReserveSecretCheck): the service that compares
 * it, so that no caller spends, and so locks out, a budget its flows never check
 * (docs/security.md, "Trust between the services").
 */
const reserversOf: Record<SecretKind, readonly string[]> = {
  password: ["identity"],
  appCode: ["identity"],
  smsCode: ["gateway"],
  backupCode: ["gateway"],
  passkey: ["identity"],
  controlAnswer: ["gateway"],
};

/**
 * caller.forbidden unless the caller's flows check secrets of this kind; over plain text (the
 * development flag) there is no caller to check, as for the access table.
 */
export function assertMayReserve(context: CallContext, kind: SecretKind): void {
  if (context.plaintext) return;
  if (context.caller === undefined || !reserversOf[kind].includes(context.caller)) {
    throw new AuthError("caller.forbidden", {
      detail: `${context.caller ?? "this caller"} checks no ${kind}`,
    });
  }
}

/** The read-only contract of the company's other products: the one service a consumer may call. */
export const introspectionAccess: AccessTable<typeof TokenIntrospectionServiceService> = {
  // The audit service asks whose a token is before it lists the user's own events.
  introspectToken: ["consumer", "operator", "audit"],
};
