import type { Counter, KeyValueStore, WriteEvents } from "@auth/kv";

const otpKey = (companyId: string, sessionId: string) => `otp:${companyId}:${sessionId}`;
const cooldownKey = (companyId: string, sessionId: string) => `cooldown:${companyId}:${sessionId}`;
const sessionSendsKey = (companyId: string, sessionId: string) => `session-sends:${companyId}:${sessionId}`;
const userSendsKey = (companyId: string, userId: string) => `user-sends:${companyId}:${userId}`;
const smsBudgetKey = (companyId: string) => `sms-budget:${companyId}`;
const smsPrefixKey = (companyId: string, prefix: string) => `sms-prefix:${companyId}:${prefix}`;
const smsBreakerKey = (companyId: string, prefix: string) => `sms-breaker:${companyId}:${prefix}`;

/**
 * A session's current code: its HMAC (never the code), whose it is, for the event of its check, and
 * the prefix of the number it went to, whose codes entered right its check counts.
 */
export interface StoredOtp {
  hash: string;
  userId: string;
  /** Absent from codes stored before the limits against SMS pumping. */
  prefix?: string;
  /**
   * A phone change's code: the new phone it went to, which a right code makes the user's; absent
   * from the codes of logins and recoveries.
   */
  newPhone?: string;
}

/** The hour's codes of a company and of one region, and when their window ends. */
export interface SmsBudgets {
  /** True when both were below their budgets, and the code was counted in each. */
  spent: boolean;
  company: number;
  region: number;
  ttlMs: number;
}

/** The codes sent to a prefix and those of them entered right, in the window of the first. */
export interface PrefixCounts {
  sent: number;
  entered: number;
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

  /** Gives back the session's send counted for a code that was refused, with the refusal's events. */
  async uncountSessionSend(companyId: string, sessionId: string, events: WriteEvents): Promise<void> {
    await this.kv.decrement(sessionSendsKey(companyId, sessionId), events);
  }

  /**
   * Spends one code of the company's budget and one of the region's in one step, only while both
   * are below their budgets: of any number of sends at once, neither is ever passed.
   */
  async spendSmsBudgets(
    companyId: string,
    region: string,
    budgets: { company: number; region: number },
    windowMs: number,
  ): Promise<SmsBudgets> {
    const ofRegion = `region:${region}`;
    const { counted, counts, ttlMs } = await this.kv.incrementCounters(
      smsBudgetKey(companyId),
      windowMs,
      ["company", ofRegion],
      { company: budgets.company, [ofRegion]: budgets.region },
    );
    return { spent: counted, company: counts.company ?? 0, region: counts[ofRegion] ?? 0, ttlMs };
  }

  async countSmsSent(companyId: string, prefix: string, windowMs: number): Promise<void> {
    await this.kv.incrementCounters(smsPrefixKey(companyId, prefix), windowMs, ["sent"]);
  }

  async countSmsEntered(companyId: string, prefix: string, windowMs: number): Promise<void> {
    await this.kv.incrementCounters(smsPrefixKey(companyId, prefix), windowMs, ["entered"]);
  }

  async readPrefixCounts(companyId: string, prefix: string): Promise<PrefixCounts> {
    const { counts } = await this.kv.readCounters(smsPrefixKey(companyId, prefix));
    return { sent: counts.sent ?? 0, entered: counts.entered ?? 0 };
  }

  /** Opens the prefix's breaker for `ms`, unless it is open already. */
  async openBreaker(companyId: string, prefix: string, ms: number): Promise<void> {
    await this.kv.setIfAbsent(smsBreakerKey(companyId, prefix), "1", ms);
  }

  /** Milliseconds until the prefix's breaker closes; 0 when it is closed. */
  async breakerLeft(companyId: string, prefix: string): Promise<number> {
    return (await this.kv.readCounter(smsBreakerKey(companyId, prefix))).ttlMs;
  }
}
