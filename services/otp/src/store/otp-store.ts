import type { Counter, KeyValueStore } from "@auth/kv";

const otpKey = (companyId: string, sessionId: string) => `otp:${companyId}:${sessionId}`;
const cooldownKey = (companyId: string, sessionId: string) => `cooldown:${companyId}:${sessionId}`;
const sessionSendsKey = (companyId: string, sessionId: string) => `session-sends:${companyId}:${sessionId}`;
const userSendsKey = (companyId: string, userId: string) => `user-sends:${companyId}:${userId}`;

/** OTP hashes and the counters that limit sending, in the otp service's key space. */
export class OtpStore {
  constructor(private readonly kv: KeyValueStore) {}

  /** Keeps the session's one current OTP, replacing any earlier one. */
  saveOtp(companyId: string, sessionId: string, otpHash: string, ttlMs: number): Promise<void> {
    return this.kv.set(otpKey(companyId, sessionId), otpHash, ttlMs);
  }

  /** Reads and removes the session's OTP: every verification burns it. */
  takeOtp(companyId: string, sessionId: string): Promise<string | null> {
    return this.kv.take(otpKey(companyId, sessionId));
  }

  /** False while the session's previous send is within its cooldown. */
  startCooldown(companyId: string, sessionId: string, cooldownMs: number): Promise<boolean> {
    return this.kv.setIfAbsent(cooldownKey(companyId, sessionId), "1", cooldownMs);
  }

  async cooldownLeft(companyId: string, sessionId: string): Promise<number> {
    return (await this.kv.readCounter(cooldownKey(companyId, sessionId))).ttlMs;
  }

  async endCooldown(companyId: string, sessionId: string): Promise<void> {
    await this.kv.delete(cooldownKey(companyId, sessionId));
  }

  countSessionSend(companyId: string, sessionId: string, windowMs: number): Promise<Counter> {
    return this.kv.increment(sessionSendsKey(companyId, sessionId), windowMs);
  }

  countUserSend(companyId: string, userId: string, windowMs: number): Promise<Counter> {
    return this.kv.increment(userSendsKey(companyId, userId), windowMs);
  }
}
