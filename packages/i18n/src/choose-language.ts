import { match } from "@formatjs/intl-localematcher";
import { isLanguage, type Language, languages, sourceLanguage } from "./languages.js";

/** What a request tells of its user's language, most binding first. */
export interface LanguageWishes {
  /** The request's own field (a BCP 47 tag): the client asked for it. */
  requested?: string | undefined;
  /** The user's languages in order of preference: Accept-Language's (acceptedLanguages) or navigator.languages. */
  preferred?: readonly string[] | undefined;
  /** The company's default language. */
  companyDefault?: string | undefined;
}

/** Whether Intl takes the tag: a tag it refuses (or "*") could match nothing. */
function isWellFormed(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * The language to answer in (docs/decisions.md, "Languages"): the request's field, then the user's
 * preferences in order, then the company's default, then English; each the first of them the suite
 * speaks, a regional tag matching its language ("de-CH" is German). BCP 47 lookup, not best fit:
 * the order of the wishes decides, never a closeness between languages.
 */
export function chooseLanguage(wishes: LanguageWishes): Language {
  const candidates = [wishes.requested, ...(wishes.preferred ?? []), wishes.companyDefault].filter(
    (tag): tag is string => tag !== undefined && isWellFormed(tag),
  );
  const chosen = match(candidates, languages, sourceLanguage, { algorithm: "lookup" });
  return isLanguage(chosen) ? chosen : sourceLanguage;
}
