import type { SmsLimits } from "@auth/proto/otp";

/** What a zero in a company's `SmsLimits` stands for (proto/auth/otp/v1/otp.proto). */
export const smsLimitDefaults = {
  perRegionPerHour: 200,
  perCompanyPerHour: 1_000,
  breakerMinSent: 20,
  breakerMinEnteredPercent: 20,
} as const;

/** A company's limits against SMS pumping, its defaults in place (docs/decisions.md, "SMS pumping"). */
export interface SmsPumpingLimits {
  /** ISO 3166-1 alpha-2 regions, upper case. */
  allowedRegions: ReadonlySet<string>;
  perRegionPerHour: number;
  perCompanyPerHour: number;
  breakerMinSent: number;
  breakerMinEnteredPercent: number;
}

/** The company's limits; with no region listed, its home region (its default_phone_region) only. */
export function smsPumpingLimitsOf(limits: SmsLimits | undefined, homeRegion: string): SmsPumpingLimits {
  const listed = limits?.allowedRegions ?? [];
  return {
    allowedRegions: new Set(
      (listed.length > 0 ? listed : [homeRegion]).map((region) => region.toUpperCase()),
    ),
    perRegionPerHour: limits?.perRegionPerHour || smsLimitDefaults.perRegionPerHour,
    perCompanyPerHour: limits?.perCompanyPerHour || smsLimitDefaults.perCompanyPerHour,
    breakerMinSent: limits?.breakerMinSent || smsLimitDefaults.breakerMinSent,
    breakerMinEnteredPercent: limits?.breakerMinEnteredPercent || smsLimitDefaults.breakerMinEnteredPercent,
  };
}
