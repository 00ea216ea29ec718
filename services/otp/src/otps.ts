import type { SmsSender } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import type { EventOrigin, OriginOf } from "@auth/events";
import type { Counter } from "@auth/kv";
import { OtpPurpose } from "@auth/proto/otp";
import { metrics } from "@auth/telemetry";
import { generateOtp, type OtpHasher } from "./otp-codes.js";
import { checkEvents, type SendPurpose, sentEvents, smsRefusedEvents } from "./otp-events.js";
import { smsDestinationOf } from "./sms-pumping/destination.js";
import { SmsPumpingGuard, type SmsRefusal } from "./sms-pumping/guard.js";
import type { SmsPumpingLimits } from "./sms-pumping/limits.js";
import type { OtpStore, StoredOtp } from "./store/otp-store.js";

export interface OtpRules {
  lifetimeMs: number;
  /** Minimum time between two sends in one session. */
  cooldownMs: number;
  /** Sends per session, the first included. */
  sendsPerSession: number;
  /** Sends per user per hour, across sessions, login and recovery together. */
  sendsPerUserPerHour: number;
}

/** The OTP rules (docs/api-contract.md, "One-time passwords"). */
export const designRules: OtpRules = {
  lifetimeMs: 5 * 60_000,
  cooldownMs: 30_000,
  sendsPerSession: 5,
  sendsPerUserPerHour: 10,
};

// Sessions live at most 15 minutes before authorization; their send count lives as long as any session.
const sessionSendWindowMs = 24 * 60 * 60_000;
const hourMs = 60 * 60_000;

/** Where a code goes, how it is sent and worded, and the company's limits on where and how many. */
export interface OtpDelivery {
  phone: string;
  text: (otp: string) => string;
  sender: SmsSender;
  limits: SmsPumpingLimits;
}

export interface SendRequest {
  companyId: string;
  userId: string;
  sessionId: string;
  purpose: SendPurpose;
  /**
   * Asked once this service's own limits allow the send, and only then: for a recovery code the
   * owner of the user's phone spends one of the user's recovery messages as it answers (SMS and
   * e-mails together: docs/decisions.md, "Recovery"), so a send refused here spends none.
   */
  delivery: () => Promise<OtpDelivery>;
}

function limitExceeded(counter: Counter, limit: number, detail: string): void {
  if (counter.count > limit) {
    throw new AuthError("request.ratelimit.exceeded", {
      retryAfterSeconds: Math.ceil(counter.ttlMs / 1000),
      detail,
    });
  }
}

const secondsOf = (ms: number) => Math.max(Math.ceil(ms / 1000), 1);

/** Issues, sends and checks one-time passwords. */
export class Otps {
  readonly #pumping: SmsPumpingGuard;

  constructor(
    private readonly store: OtpStore,
    private readonly hasher: OtpHasher,
    private readonly rules: OtpRules,
  ) {
    this.#pumping = new SmsPumpingGuard(store);
  }

  /** Sends a new code of the session; returns the phone it went to. */
  async send(request: SendRequest, origin: EventOrigin): Promise<{ phone: string }> {
    const { companyId, sessionId } = request;
    if (!(await this.store.startCooldown(companyId, sessionId, this.rules.cooldownMs))) {
      const left = await this.store.cooldownLeft(companyId, sessionId);
      throw new AuthError("request.ratelimit.exceeded", {
        retryAfterSeconds: secondsOf(left),
        detail: "an OTP was sent moments ago",
      });
    }
    try {
      limitExceeded(
        await this.store.countSessionSend(companyId, sessionId, sessionSendWindowMs),
        this.rules.sendsPerSession,
        "no more OTPs for this session",
      );
      limitExceeded(
        await this.store.countUserSend(companyId, request.userId, hourMs),
        this.rules.sendsPerUserPerHour,
        "no more OTPs for this user this hour",
      );
      const { phone, text, sender, limits } = await request.delivery();
      const destination = await smsDestinationOf(phone);
      const refusal = await this.#pumping.refusalOf(companyId, destination, limits);
      if (refusal) throw await this.#refused(request, refusal, origin);
      const otp = generateOtp();
      await sender.send({ companyId, to: phone, text: text(otp) });
      // Kept once it went out, by the write that records the send: a send that failed records
      // nothing, and leaves the earlier code as it was.
      const newPhone = request.purpose === OtpPurpose.PHONE_CHANGE ? phone : undefined;
      await this.store.saveOtp(
        companyId,
        sessionId,
        { hash: this.hasher.hash(otp), userId: request.userId, prefix: destination.prefix, newPhone },
        this.rules.lifetimeMs,
        sentEvents(request, request.purpose, origin),
      );
      await this.#pumping.countSent(companyId, destination.prefix);
      return { phone };
    } catch (error) {
      // Only a send that happened starts the cooldown; a refused or failed one can be retried.
      await this.store.endCooldown(companyId, sessionId);
      throw error;
    }
  }

  /**
   * Records a code the limits against SMS pumping refused, and answers it (docs/decisions.md, "SMS
   * pumping"): the send counted against the session gives its place back, by the write that
   * records the refusal's event.
   */
  async #refused(request: SendRequest, refusal: SmsRefusal, origin: EventOrigin): Promise<AuthError> {
    const events = smsRefusedEvents(request, refusal, origin);
    await this.store.uncountSessionSend(request.companyId, request.sessionId, events);
    metrics.smsRefused.inc({ reason: refusal.reason, region: refusal.region });
    return new AuthError("request.ratelimit.exceeded", {
      retryAfterSeconds: secondsOf(refusal.retryAfterMs),
      detail: `SMS refused: ${refusal.reason}`,
    });
  }

  /** True only for the session's current, unexpired OTP of a login or a recovery (#check). */
  async verify(companyId: string, sessionId: string, otp: string, originOf: OriginOf): Promise<boolean> {
    return (await this.#check({ companyId, sessionId, otp, phoneChange: false }, originOf)) !== undefined;
  }

  /** The user and the new phone of the session's current, unexpired code of a phone change (#check). */
  async verifyPhoneChange(
    companyId: string,
    sessionId: string,
    otp: string,
    originOf: OriginOf,
  ): Promise<{ userId: string; newPhone: string } | undefined> {
    const right = await this.#check({ companyId, sessionId, otp, phoneChange: true }, originOf);
    return right?.newPhone === undefined ? undefined : { userId: right.userId, newPhone: right.newPhone };
  }

  /**
   * The code, when the attempt is the session's current, unexpired OTP, sent for a phone change or
   * not as `phoneChange` says (a code of the other kind is wrong). Any attempt burns the code it was
   * compared with, by the write that records the check; a code replaced or burnt meanwhile (a
   * resend, a parallel attempt) is not burnt: the attempt is compared again with the code current
   * then.
   */
  async #check(
    check: { companyId: string; sessionId: string; otp: string; phoneChange: boolean },
    originOf: OriginOf,
  ): Promise<StoredOtp | undefined> {
    const { companyId, sessionId, otp } = check;
    for (;;) {
      const current = await this.store.readOtp(companyId, sessionId);
      if (current === null) return undefined;
      const right =
        (current.otp.newPhone !== undefined) === check.phoneChange &&
        this.hasher.matches(otp, current.otp.hash);
      const code = { companyId, sessionId, userId: current.otp.userId };
      const events = checkEvents(code, right, originOf(code.userId));
      if (await this.store.burnOtp(companyId, sessionId, current.raw, events)) {
        metrics.secretsCompared.inc({ kind: "otp" });
        if (right && current.otp.prefix) await this.#pumping.countEntered(companyId, current.otp.prefix);
        return right ? current.otp : undefined;
      }
    }
  }
}
