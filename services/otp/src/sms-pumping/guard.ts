import type { OtpStore, PrefixCounts } from "../store/otp-store.js";
import type { SmsDestination } from "./destination.js";
import type { SmsPumpingLimits } from "./limits.js";

/** Why a code was refused, as auth_sms_refused_total and auth.sms.refused name it. */
export type SmsRefusalReason = "region" | "breaker" | "region_budget" | "company_budget";

export interface SmsRefusal extends SmsDestination {
  reason: SmsRefusalReason;
  /** Until the send may be tried again: the answer's Retry-After. */
  retryAfterMs: number;
}

/**
 * The budgets and the breaker's counts hold for an hour from their first code, as the service's
 * other counters do; an open breaker and a region not allowed answer an hour too.
 */
export const smsWindowMs = 60 * 60_000;

/** The breaker's rule: enough codes went to the prefix, and too few of them were entered right. */
export function breakerTrips({ sent, entered }: PrefixCounts, limits: SmsPumpingLimits): boolean {
  return sent >= limits.breakerMinSent && entered * 100 < limits.breakerMinEnteredPercent * sent;
}

/**
 * A company's limits against SMS pumping (docs/decisions.md, "SMS pumping"), asked before each code
 * goes out, in the decision's order: the number's region, its prefix's breaker, then the budgets.
 */
export class SmsPumpingGuard {
  constructor(private readonly store: OtpStore) {}

  /** Why the code may not go to the destination; undefined once it has taken its place in the budgets. */
  async refusalOf(
    companyId: string,
    destination: SmsDestination,
    limits: SmsPumpingLimits,
  ): Promise<SmsRefusal | undefined> {
    const refuse = (reason: SmsRefusalReason, retryAfterMs: number) => ({
      ...destination,
      reason,
      retryAfterMs,
    });
    if (!limits.allowedRegions.has(destination.region)) return refuse("region", smsWindowMs);
    const breakerLeft = await this.#breakerLeft(companyId, destination.prefix, limits);
    if (breakerLeft > 0) return refuse("breaker", breakerLeft);
    const budgets = await this.store.spendSmsBudgets(
      companyId,
      destination.region,
      { company: limits.perCompanyPerHour, region: limits.perRegionPerHour },
      smsWindowMs,
    );
    if (budgets.spent) return undefined;
    const spentOut = budgets.company >= limits.perCompanyPerHour ? "company_budget" : "region_budget";
    return refuse(spentOut, budgets.ttlMs);
  }

  /** The prefix's open breaker's rest; the breaker opens here when its counts trip it. */
  async #breakerLeft(companyId: string, prefix: string, limits: SmsPumpingLimits): Promise<number> {
    const left = await this.store.breakerLeft(companyId, prefix);
    if (left > 0) return left;
    if (!breakerTrips(await this.store.readPrefixCounts(companyId, prefix), limits)) return 0;
    await this.store.openBreaker(companyId, prefix, smsWindowMs);
    return smsWindowMs;
  }

  /** A code went out to the prefix. */
  countSent(companyId: string, prefix: string): Promise<void> {
    return this.store.countSmsSent(companyId, prefix, smsWindowMs);
  }

  /** A code sent to the prefix was entered right. */
  countEntered(companyId: string, prefix: string): Promise<void> {
    return this.store.countSmsEntered(companyId, prefix, smsWindowMs);
  }
}
