import type { ErrorCode } from "@auth/errors";
import { catalogues, type Language, translator } from "@auth/i18n";
import type { TenantCompany } from "../endpoint/context.js";

/**
 * What the user is told for an error code (docs/decisions.md, "Languages"): the `errors` message in
 * the language, or the company's own text of it in that language where it has one.
 */
export function errorMessage(code: ErrorCode, language: Language, company?: TenantCompany): string {
  return translator(catalogues[language], { companyTexts: company?.policy.texts }).format("errors", code);
}
