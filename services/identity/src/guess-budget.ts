import type { GuessBudget, ServiceClient } from "@auth/grpc-kit";
import type { SessionServiceService } from "@auth/proto/session";

/**
 * What identity asks of the session service: to spend budgets of guesses before it compares a
 * password, an app code or a passkey's assertion, to end a user's sessions when the user's
 * authenticators change, to record a login an OAuth provider verified, whose password change a
 * session was claimed for (SetPassword writes for no other), the passkey ceremonies' challenges,
 * their sessions and what a right assertion proved, and whose a session changing an address is.
 */
export type SessionCalls = GuessBudget &
  Pick<
    ServiceClient<typeof SessionServiceService>,
    | "revokeUserSessions"
    | "recordFederatedLogin"
    | "getCredentialChange"
    | "issuePasskeyChallenge"
    | "takePasskeyChallenge"
    | "recordPasskeyProof"
    | "introspectSession"
  >;
