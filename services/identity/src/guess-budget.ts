import type { GuessBudget, ServiceClient } from "@auth/grpc-kit";
import type { SessionServiceService } from "@auth/proto/session";

/**
 * What identity asks of the session service: to spend budgets of guesses before it compares a
 * password or an app code, and to end a user's sessions when the user's authenticators change.
 */
export type SessionCalls = GuessBudget &
  Pick<ServiceClient<typeof SessionServiceService>, "revokeUserSessions">;
