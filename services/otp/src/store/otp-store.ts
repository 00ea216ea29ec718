import type { Counter, KeyValueStore, WriteEvents } from "@auth/kv";

const otpKey = (companyId: string, sessionId: string) => `otp:${companyId}:${sessionId}`;
const cooldownKey = (companyId: string, sessionId: string) => `cooldown:${companyId}:${sessionId}`;
const sessionSendsKey = (companyId: string, sessionId: string) => `session-sends:${companyId}:${sessionId}`;
const userSendsKey = (companyId: string, userId: string) => `user-sends:${companyId}:${userId}`;

/** A session's current code: its HMAC (never the code), and whose it is, for the event of its check. */
export interface StoredOtp {
  hash: string;
  userId: string;
}

/** OTP hashes and the counters that limit sending, in the otp service's key space. */
export class OtpStore {
  constructor(private readonly kv: KeyValueStore) {}

  /** Keeps the session's one current OTP, replacing any earlier one. */
  saveOtp(
    companyId: string,
    sessionId: string,
    otp: StoredOtp,
    ttlMs: number,
    events: WriteEvents,
  ): Promise<void> {
    return this.kv.set(otpKey(companyId, sessionId), JSON.stringify(otp), ttlMs, events);
  }

  /** The session's current OTP (`raw`, for burnOtp); null when it has none. */
  async readOtp(companyId: string, sessionId: string): Promise<{ raw: string; otp: StoredOtp } | null> {
    const raw = await this.kv.get(otpKey(companyId, sessionId));
    if (raw === null) return null;
    // A code stored before codes named their user is its bare hash; it lives 5 minutes at most.
    const otp: StoredOtp = raw.startsWith("{") ? JSON.parse(raw) : { hash: raw, userId: "" };
    return { raw, otp };
  }

  /** Removes the OTP read as `raw`, unless it was replaced or removed meanwhile; true when it did. */
  burnOtp(companyId: string, sessionId: string, raw: string, events: WriteEvents): Promise<boolean> {
    return this.kv.compareAndSet(otpKey(companyId, sessionId), raw, null, 0, events);
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
