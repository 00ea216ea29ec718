import type { CompanyPolicy } from "@auth/proto/identity";
import type { TenantCompany } from "./context.js";

/**
 * A company as the gateway holds it, for unit tests, with the policy defaults
 * (docs/api-contract.md, "Company policy defaults").
 */
export function tenantCompany(policy: Partial<CompanyPolicy> = {}, id = "c1"): TenantCompany {
  return {
    id,
    code: id,
    name: `Company ${id}`,
    suspended: false,
    policy: {
      twoFactorRoles: [],
      defaultPhoneRegion: "US",
      loginIdKindsByRole: {},
      captchaAfterFailures: 3,
      lockoutAfterFailures: 10,
      failureWindowSeconds: 900,
      preauthSessionSeconds: 0,
      authorizedSessionSeconds: 0,
      rateLimitPerAddressPerMinute: 0,
      rateLimitPerLoginIdPerMinute: 0,
      recoveryMessagesPerHour: 0,
      ...policy,
    },
  };
}
