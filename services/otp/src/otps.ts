import type { SmsSender } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import type { Counter } from "@auth/kv";
import { metrics } from "@auth/telemetry";
import { generateOtp, type OtpHasher } from "./otp-codes.js";
import type { OtpStore } from "./store/otp-store.js";

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

/** Where a code goes and how it is sent and worded. */
export interface OtpDelivery {
  phone: string;
  text: (otp: string) => string;
  sender: SmsSender;
}

export interface SendRequest {
  companyId: string;
  userId: string;
  sessionId: string;
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

/** Issues, sends and checks one-time passwords. */
export class Otps {
  constructor(
    private readonly store: OtpStore,
    private readonly hasher: OtpHasher,
    private readonly rules: OtpRules,
  ) {}

  /** Sends a new code of the session; returns the phone it went to. */
  async send(request: SendRequest): Promise<{ phone: string }> {
    const { companyId, sessionId } = request;
    if (!(await this.store.startCooldown(companyId, sessionId, this.rules.cooldownMs))) {
      const left = await this.store.cooldownLeft(companyId, sessionId);
      throw new AuthError("request.ratelimit.exceeded", {
        retryAfterSeconds: Math.max(Math.ceil(left / 1000), 1),
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
      const { phone, text, sender } = await request.delivery();
      const otp = generateOtp();
      await this.store.saveOtp(companyId, sessionId, this.hasher.hash(otp), this.rules.lifetimeMs);
      await sender.send({ companyId, to: phone, text: text(otp) });
      return { phone };
    } catch (error) {
      // Only a send that happened starts the cooldown; a refused or failed one can be retried.
      await this.store.endCooldown(companyId, sessionId);
      throw error;
    }
  }

  /** True only for the session's current, unexpired OTP; any attempt burns it. */
  async verify(companyId: string, sessionId: string, otp: string): Promise<boolean> {
    const stored = await this.store.takeOtp(companyId, sessionId);
    if (stored === null) return false;
    metrics.secretsCompared.inc({ kind: "otp" });
    return this.hasher.matches(otp, stored);
  }
}
