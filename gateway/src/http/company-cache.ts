import { createHash } from "node:crypto";
import { TtlCache } from "@auth/runtime";
import type { TenantCompany } from "../endpoint/context.js";

/**
 * Companies of recently seen API keys, kept for a few seconds: every request needs its company,
 * and asking the identity service each time costs a call and a query. A revoked key, a suspension
 * or a policy change is seen once its entry has expired. Refused keys are never kept.
 */
export class CompanyCache extends TtlCache<TenantCompany> {
  /** The entry of a company code and API key (never the key itself). */
  static key(companyCode: string, apiKey: string): string {
    return createHash("sha256").update(`${companyCode}\n${apiKey}`).digest("base64url");
  }
}
