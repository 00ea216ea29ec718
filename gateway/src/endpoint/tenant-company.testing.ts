import { companyPolicy } from "@auth/grpc-kit";
import type { CompanyPolicy } from "@auth/proto/identity";
import type { TenantCompany } from "./context.js";

/**
 * A company as the gateway holds it, for unit tests: its policy as identity answers it, with the
 * defaults in place (docs/api-contract.md, "Company policy defaults").
 */
export function tenantCompany(policy: Partial<CompanyPolicy> = {}, id = "c1"): TenantCompany {
  return {
    id,
    code: id,
    name: `Company ${id}`,
    suspended: false,
    policy: companyPolicy({
      defaultPhoneRegion: "US",
      captchaAfterFailures: 3,
      lockoutAfterFailures: 10,
      failureWindowSeconds: 900,
      recoveryMessagesPerHour: 5,
      ...policy,
    }),
  };
}
