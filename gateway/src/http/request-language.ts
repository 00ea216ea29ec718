import { acceptedLanguages, chooseLanguage, type Language } from "@auth/i18n";
import type { Request, Response } from "express";
import type { TenantCompany } from "../endpoint/context.js";
import { fields } from "../endpoint/fields.js";

/**
 * Notes the body's `language` field once the body is read, before the endpoint checks the body, so
 * that a refusal of the body is in that language too. A field that is not a tag of 35 characters
 * at most is passed over here: the body's check refuses it.
 */
export function noteRequestedLanguage(response: Response, body: Record<string, unknown>): void {
  response.locals.requestedLanguage = fields.language.safeParse(body.language).data;
}

/**
 * The language of the request (docs/decisions.md, "Languages"), from what is known of it when it
 * is first asked for: the body's `language` once the body is read (noteRequestedLanguage), then
 * Accept-Language, then the company's default language once its API key is checked, then English.
 * Chosen at most once per request, and only for a request that needs it (an error answer, an SMS,
 * an e-mail): choosing costs tens of microseconds.
 */
export function requestLanguage(request: Request, response: Response): Language {
  const company: TenantCompany | undefined = response.locals.company;
  response.locals.language ??= chooseLanguage({
    requested: response.locals.requestedLanguage,
    preferred: acceptedLanguages(request.get("accept-language")),
    companyDefault: company?.policy.defaultLanguage,
  });
  return response.locals.language;
}
