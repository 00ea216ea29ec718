import type { Catalogue, MessageKey } from "@auth/i18n/catalogue.js";
import type { CompanyText } from "@auth/i18n/company-texts.js";
import type { Language } from "@auth/i18n/languages.js";
import { type MessageValues, type Translator, translator } from "@auth/i18n/translator.js";

/** What the page says its words with, chosen as it starts (page-language.ts). */
export interface Voice {
  /** The catalogue of the page's language (packages/i18n): its `page` and `errors` messages. */
  catalogue: Catalogue;
  /** The company's own texts (GET auth/brand); those of the page's language replace the catalogue's. */
  companyTexts?: readonly CompanyText[];
  /** The company's name, for the document's title. */
  companyName?: string;
}

let spoken: { voice: Voice; translate: Translator } | undefined;

/**
 * From now on every word of the page is in the voice's language (docs/decisions.md, "Languages"):
 * the page speaks one language from its start to its end.
 */
export function speak(voice: Voice): void {
  spoken = { voice, translate: translator(voice.catalogue, { companyTexts: voice.companyTexts ?? [] }) };
}

function current(): NonNullable<typeof spoken> {
  if (!spoken) throw new Error("the page's language is chosen before it says anything");
  return spoken;
}

/** The page's translator, for the words @auth/i18n's modules say themselves (a device's name). */
export const words = (): Translator => current().translate;

/** The page's language; undefined before it is chosen. */
export const spokenLanguage = (): Language | undefined => spoken?.translate.language;

/**
 * A text of the page (the `page` messages), its placeholders filled: plurals by the language's rules,
 * dates (Date values) in the language's form and the browser's time zone.
 */
export const text = (key: MessageKey<"page">, values?: MessageValues): string =>
  current().translate.format("page", key, values);

/** What the page tells the user for an error code; undefined for a code the suite does not have. */
export function errorText(code: string): string | undefined {
  const { voice, translate } = current();
  return Object.hasOwn(voice.catalogue.messages.errors, code)
    ? translate.format("errors", code as MessageKey<"errors">)
    : undefined;
}

/** The document's title: the step's, and the company's name once it is known. */
export function pageTitle(step?: string): string {
  const company = current().voice.companyName;
  if (step === undefined)
    return company ? text("document.companyTitle", { company }) : text("document.title");
  return company
    ? text("document.companyStepTitle", { step, company })
    : text("document.stepTitle", { step });
}
