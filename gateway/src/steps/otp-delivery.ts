import { AuthError } from "@auth/errors";
import type { User } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import type { FlowContext } from "../endpoint/context.js";
import type { StateName } from "../endpoint/states.js";
import { securityEvent } from "../security-events.js";
import { type SessionStart, type StartedSession, startSession } from "./session-moves.js";

/** Sends a new OTP to the user's primary phone; returns the masked phone for `user_phone`. */
export async function sendOtp(
  context: FlowContext,
  user: User,
  sessionId: string,
  purpose: OtpPurpose = OtpPurpose.LOGIN,
): Promise<string> {
  // Users without a password always have a phone; a second factor without one cannot be passed.
  if (!user.phone)
    throw new AuthError("auth.user.restricted", { detail: "second factor required but no phone" });
  const { maskedPhone } = await context.backends.otp.sendOtp({
    companyId: context.company.id,
    userId: user.id,
    sessionId,
    purpose,
  });
  securityEvent(context, "otp.sent", { userId: user.id, sessionId, purpose });
  return maskedPhone;
}

/**
 * The login's second factor (docs/decisions.md, "TOTP"): an SMS OTP to the user's phone, whose
 * masked number is returned for `user_phone`; nothing for a user with an authenticator app, whose
 * code checkotp takes in `otp` instead.
 */
export async function sendLoginOtp(
  context: FlowContext,
  user: User,
  sessionId: string,
): Promise<string | undefined> {
  if (user.totpEnrolled) return undefined;
  return sendOtp(context, user, sessionId, OtpPurpose.LOGIN);
}

/**
 * Starts a session in a state that waits for an OTP and sends it. When the SMS cannot be sent the
 * session is revoked again: the client gets the error, and no session it cannot use is left.
 */
async function startSessionThenSend<Phone>(
  context: FlowContext,
  user: User,
  to: StateName,
  loginId: string,
  start: SessionStart,
  send: (sessionId: string) => Promise<Phone>,
): Promise<StartedSession & { userPhone: Phone }> {
  const started = await startSession(context, user, to, loginId, start);
  try {
    return { ...started, userPhone: await send(started.session.sessionId) };
  } catch (error) {
    await context.backends.session.revokeSession({ sessionToken: started.token });
    throw error;
  }
}

/** A recovery session that waits for the SMS OTP sent with it. */
export function startSessionWithOtp(
  context: FlowContext,
  user: User,
  to: StateName,
  loginId: string,
  purpose: OtpPurpose,
  start: SessionStart = {},
): Promise<StartedSession & { userPhone: string }> {
  return startSessionThenSend(context, user, to, loginId, start, (sessionId) =>
    sendOtp(context, user, sessionId, purpose),
  );
}

/** A login session in checkotp, with the login's second factor sent (sendLoginOtp). */
export function startLoginSessionAtOtp(
  context: FlowContext,
  user: User,
  loginId: string,
  start: SessionStart = {},
): Promise<StartedSession & { userPhone?: string }> {
  return startSessionThenSend(context, user, "checkotp", loginId, start, (sessionId) =>
    sendLoginOtp(context, user, sessionId),
  );
}
