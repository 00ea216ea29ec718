import type { CompanyPolicy } from "@auth/proto/identity";
import { type SmsLimits, SmsProvider, type SmsSettings } from "@auth/proto/otp";
import type { CompanyLimits } from "@auth/proto/session";

/**
 * A whole CompanyPolicy for the wire, for tests, fixtures and seeds: what `fields` does not set is
 * zero or empty, which the identity service answers with its defaults (docs/api-contract.md,
 * "Company policy defaults").
 */
export function companyPolicy(fields: Partial<CompanyPolicy> = {}): CompanyPolicy {
  return {
    twoFactorRoles: [],
    defaultPhoneRegion: "",
    loginIdKindsByRole: {},
    captchaAfterFailures: 0,
    lockoutAfterFailures: 0,
    failureWindowSeconds: 0,
    preauthSessionSeconds: 0,
    authorizedSessionSeconds: 0,
    rateLimitPerAddressPerMinute: 0,
    rateLimitPerLoginIdPerMinute: 0,
    recoveryMessagesPerHour: 0,
    minPasswordLength: 0,
    minPasswordLengthWithSecondFactor: 0,
    sessionAbsoluteSeconds: 0,
    sessionIdleSeconds: 0,
    newDeviceNoticeDays: 0,
    maxSessionsPerUser: 0,
    notificationTemplates: [],
    defaultLanguage: "",
    texts: [],
    ...fields,
  };
}

/**
 * The limits of a company on the default policy, as identity resolves it (docs/api-contract.md,
 * "Company policy defaults"), for tests and the benchmark to send where the gateway or identity would.
 */
export const defaultCompanyLimits: CompanyLimits = {
  captchaAfterFailures: 3,
  lockoutAfterFailures: 10,
  failureWindowSeconds: 900,
  newDeviceNoticeDays: 90,
  maxSessionsPerUser: 0,
};

/**
 * A whole SmsSettings for the wire, for tests, fixtures and seeds: the deployment's sender unless
 * `fields` name a provider, and the limits against SMS pumping zero (their defaults) but for those
 * given (docs/decisions.md, "SMS pumping").
 */
export function smsSettings(
  fields: Partial<Omit<SmsSettings, "limits">> & { limits?: Partial<SmsLimits> } = {},
): SmsSettings {
  const { limits, ...settings } = fields;
  return {
    provider: SmsProvider.UNSPECIFIED,
    url: "",
    token: "",
    account: "",
    sender: "",
    region: "",
    ...settings,
    limits: {
      allowedRegions: [],
      perRegionPerHour: 0,
      perCompanyPerHour: 0,
      breakerMinSent: 0,
      breakerMinEnteredPercent: 0,
      ...limits,
    },
  };
}

/**
 * Limits against SMS pumping out of the way of a load or a burst that sends many codes, few of
 * them entered (the highest identity accepts); the limits' own tests are services/otp's.
 */
export const smsLimitsOutOfTheWay: Partial<SmsLimits> = {
  perRegionPerHour: 10_000_000,
  perCompanyPerHour: 10_000_000,
  breakerMinSent: 1_000_000,
};
