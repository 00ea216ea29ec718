import { type EventOrigin, eventJson, newEvent } from "@auth/events";

import type { WriteEvents } from "@auth/kv";
import { Factor, Outcome } from "@auth/proto/events";
import { OtpPurpose } from "@auth/proto/otp";
import type { SmsRefusal } from "./sms-pumping/guard.js";

/** The purposes a code is sent for. */
export type SendPurpose = OtpPurpose.LOGIN | OtpPurpose.RECOVERY | OtpPurpose.PHONE_CHANGE;

const purposeNames = {
  [OtpPurpose.LOGIN]: "login",
  [OtpPurpose.RECOVERY]: "recovery",
  [OtpPurpose.PHONE_CHANGE]: "phone_change",
} as const satisfies Record<SendPurpose, string>;

/** A purpose as events and metrics name it. */
export const purposeName = (purpose: SendPurpose) => purposeNames[purpose];

/** A session's code: whose it is, and the session it was sent for. */
export interface CodeOf {
  companyId: string;
  userId: string;
  sessionId: string;
}

/** auth.otp.sent, for the write that keeps the code once it went out: never the code or the phone. */
export function sentEvents(code: CodeOf, purpose: SendPurpose, origin: EventOrigin): WriteEvents {
  const event = newEvent("otp", {
    type: "auth.otp.sent",
    ...code,
    outcome: Outcome.SUCCEEDED,
    origin,
    detail: { otpSent: { channel: "sms", purpose: purposeName(purpose) } },
  });
  return { events: [eventJson(event)] };
}

/**
 * auth.sms.refused, for the write that gives the refused send back to its session: the reason, the
 * number's region and prefix, never the number.
 */
export function smsRefusedEvents(code: CodeOf, refusal: SmsRefusal, origin: EventOrigin): WriteEvents {
  const event = newEvent("otp", {
    type: "auth.sms.refused",
    ...code,
    outcome: Outcome.FAILED,
    origin,
    detail: { smsRefused: { reason: refusal.reason, region: refusal.region, prefix: refusal.prefix } },
  });
  return { events: [eventJson(event)] };
}

/** auth.second_factor.passed or .failed (a wrong code), for the write that burns the code checked. */
export function checkEvents(code: CodeOf, right: boolean, origin: EventOrigin): WriteEvents {
  const event = newEvent("otp", {
    type: right ? "auth.second_factor.passed" : "auth.second_factor.failed",
    ...code,
    outcome: right ? Outcome.SUCCEEDED : Outcome.FAILED,
    origin,
    detail: { factor: { factor: Factor.SMS_CODE, reason: right ? "" : "wrong", passkeyId: "" } },
  });
  return { events: [eventJson(event)] };
}
