import type { GuessBudget, ServiceClient } from "@auth/grpc-kit";
import type { SessionServiceService } from "@auth/proto/session";

/**
 * What identity asks of the session service: to spend budgets of guesses before it compares a
 * password or an app code, to end a user's sessions when the user's authenticators change, to
 * record a login an OAuth provider verified, and whose password change a session was claimed for
 * (SetPassword writes for no other).
 */
export type SessionCalls = GuessBudget &
  Pick<
    ServiceClient<typeof SessionServiceService>,
    "revokeUserSessions" | "recordFederatedLogin" | "getCredentialChange"
  >;
