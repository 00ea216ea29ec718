import type { ErrorCode } from "@auth/errors";
import type { SecondFactorKind, User } from "@auth/proto/identity";
import type { ReserveSecretCheckResponse, SecretKind } from "@auth/proto/session";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";
import type { PasskeyRequestOptions } from "../endpoint/passkeys.js";

/** checkotp's fields that carry a second factor's answer (spec 4.3). */
export type AnswerField = "otp" | "backup_code";

/** What the client is told as the login reaches checkotp (spec section 3: `user_phone`). */
export interface Challenge {
  userPhone?: string;
  /** The options of a passkey's assertion, bound to the session (docs/decisions.md, "Passkeys"). */
  passkeyOptions?: PasskeyRequestOptions;
}

/** The login's session a challenge is for: its id, and its token as the session stands. */
export interface ChallengedSession {
  sessionId: string;
  token: string;
}

/** What the check of an answer found, under the user's budget of its kind. */
export interface Verdict {
  valid: boolean;
  /** The reservation's answer; a right answer's check is left for the session move that rests on it. */
  check: ReserveSecretCheckResponse | undefined;
}

/**
 * One kind of second factor, as the login's steps use it (docs/decisions.md, "Second factors"):
 * whether a user has it is identity's answer (User.authenticators); the unit says how it is
 * challenged when the login reaches checkotp, how an answer is checked, and what a wrong one is
 * told. The steps iterate the list of units (second-factors.ts) and name none.
 */
export interface SecondFactor {
  readonly kind: SecondFactorKind;
  /**
   * The checkotp field its answers come in; none for a factor answered at an endpoint of its own
   * (a passkey's assertion, at auth/checkpasskey).
   */
  readonly field?: AnswerField;
  /** The budget its checks spend. */
  readonly secretKind: SecretKind;
  /** The answer to a wrong one. */
  readonly wrongAnswer: ErrorCode;
  /** What its challenge may answer (an SMS that may not be sent). */
  readonly challengeErrors: readonly ErrorCode[];
  /**
   * Its challenge is bound to the session in checkotp (a passkey's: identity issues it by the
   * session's state), so it is issued once the session is there, with that state's token. The
   * others' go out before a session moves into checkotp, so that a failed send leaves the session
   * as it was.
   */
  readonly challengedInCheckotp?: boolean;
  /** Sends what the user needs to answer, at checkotp's start and on renewotp. */
  challenge(context: FlowContext, user: User, session: ChallengedSession): Promise<Challenge>;
  /**
   * Checks an answer of the request's session's user, under the user's budget of its kind (an
   * answer of a field as given; a passkey's assertion as JSON).
   */
  verify(context: SessionFlowContext, user: User, answer: string): Promise<Verdict>;
}
