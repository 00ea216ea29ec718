import { AuthError } from "@auth/errors";
import { companyLimits } from "@auth/grpc-kit";
import { TokenStatus } from "@auth/proto/session";
import type { EndedToken } from "../endpoint/context.js";
import type { AnswerLeadingTo } from "../endpoint/responses.js";
import { type StateName, stateOfName } from "../endpoint/states.js";
import type { MovedSession } from "./session-moves.js";

/**
 * What a request with an Idempotency-Key whose token is gone, and whose answer no gateway kept
 * (its gateway died, or answered 503 after the change), learns from the session service: whether
 * its own earlier try ended the token (docs/decisions.md, "Idempotency-Key"). Only a token that is
 * gone is asked about: a live one of another company stays as it is.
 */
async function gone({ backends, token }: EndedToken): Promise<boolean> {
  const { status } = await backends.session.introspectSession({ sessionToken: token });
  return status === TokenStatus.INVALID;
}

/** The move from `from` to `to` this request made before (its retry key), answered again; undefined when it made none. */
export async function movedBefore(
  ended: EndedToken,
  from: StateName,
  to: StateName,
): Promise<MovedSession | undefined> {
  if (!(await gone(ended))) return undefined;
  try {
    const { sessionToken, session } = await ended.backends.session.advanceSession({
      sessionToken: ended.token,
      fromState: stateOfName[from],
      toState: stateOfName[to],
      renewCredentialGeneration: false,
      retryKey: ended.retryKey,
      limits: companyLimits(ended.company.policy),
    });
    return session?.companyId === ended.company.id ? { token: sessionToken, session } : undefined;
  } catch (error) {
    if (error instanceof AuthError && error.code === "auth.token.invalid") return undefined;
    throw error;
  }
}

/** Whether this request ended the token before: revoked it (logout), or ended its user's sessions with it (a recovery's setpassword). */
export async function revokedBefore(ended: EndedToken): Promise<boolean> {
  if (!(await gone(ended))) return false;
  const { revoked } = await ended.backends.session.revokeSession({
    sessionToken: ended.token,
    retryKey: ended.retryKey,
  });
  return revoked;
}

/** The answer of a move to authorized made before, as the move answered it (its profile is the user's, set by the move). */
export function authorizedAgain(moved: MovedSession): AnswerLeadingTo<"authorized"> {
  return {
    session_token: moved.token,
    session_state: "authorized",
    profile_mnemocode: moved.session.profileMnemocode ?? "",
  };
}
