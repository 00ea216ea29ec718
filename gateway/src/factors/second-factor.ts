import type { ErrorCode } from "@auth/errors";
import type { SecondFactorKind, User } from "@auth/proto/identity";
import type { ReserveSecretCheckResponse, SecretKind } from "@auth/proto/session";
import type { FlowContext, SessionFlowContext } from "../endpoint/context.js";

/** checkotp's fields that carry a second factor's answer (spec 4.3). */
export type AnswerField = "otp" | "backup_code";

/** What the client is told as the login reaches checkotp (spec section 3: `user_phone`). */
export interface Challenge {
  userPhone?: string;
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
  /** The checkotp field its answers come in. */
  readonly field: AnswerField;
  /** The budget its checks spend. */
  readonly secretKind: SecretKind;
  /** The answer to a wrong one. */
  readonly wrongAnswer: ErrorCode;
  /** What its challenge may answer (an SMS that may not be sent). */
  readonly challengeErrors: readonly ErrorCode[];
  /** Sends what the user needs to answer, at checkotp's start and on renewotp. */
  challenge(context: FlowContext, user: User, sessionId: string): Promise<Challenge>;
  /** Checks an answer of the request's session's user, under the user's budget of its kind. */
  verify(context: SessionFlowContext, user: User, answer: string): Promise<Verdict>;
}
