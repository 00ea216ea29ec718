import type { Catalogue } from "@auth/i18n/catalogue.js";
import { chooseLanguage } from "@auth/i18n/choose-language.js";
import type { Language } from "@auth/i18n/languages.js";
import type { Brand } from "./brand.js";
import { element } from "./view.js";
import { pageTitle, speak, text } from "./words.js";

/** Each language's catalogue, loaded alone (the browser loads it through the import map): the page needs one. */
const catalogues: Record<Language, () => Promise<Catalogue>> = {
  en: async () => (await import("@auth/i18n/catalogues/en/index.js")).en,
  de: async () => (await import("@auth/i18n/catalogues/de/index.js")).de,
  fr: async () => (await import("@auth/i18n/catalogues/fr/index.js")).fr,
};

/**
 * The page's language (docs/decisions.md, "Languages"): the first of the browser's languages that
 * the suite speaks, else the company's default, else English. The page has no language switch.
 */
export const choosePageLanguage = (preferred: readonly string[], brand: Brand | undefined): Language =>
  chooseLanguage({ preferred, companyDefault: brand?.default_language });

/**
 * Makes the page speak its language, with the company's own texts in it: the document's `lang`
 * (which the browser's hyphenation and a screen reader's voice follow), its title, and the words
 * that show while the first step loads, until now index.html's English ones.
 */
export async function startPageLanguage(
  brand: Brand | undefined,
  preferred: readonly string[] = navigator.languages,
): Promise<void> {
  const language = choosePageLanguage(preferred, brand);
  speak({
    catalogue: await catalogues[language](),
    companyTexts: brand?.texts,
    companyName: brand?.company_name,
  });
  document.documentElement.lang = language;
  document.title = pageTitle();
  document.querySelector("main")?.replaceChildren(element("p", {}, text("document.loading")));
}
