import type { CompanyPolicy } from "@auth/proto/identity";

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
    notificationTemplates: [],
    ...fields,
  };
}
