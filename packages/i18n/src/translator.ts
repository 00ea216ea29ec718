import { memoize } from "@formatjs/fast-memoize";
import { type Formatters, IntlMessageFormat } from "intl-messageformat";
import type { Catalogue, MessageKey, Namespace } from "./catalogue.js";
import type { CompanyText } from "./company-texts.js";
import type { Language } from "./languages.js";
import { parserOptions } from "./placeholders.js";

/** A placeholder's value: text, a number (plurals), or a date (formatted in the translator's zone). */
export type MessageValues = Record<string, string | number | Date>;

export interface TranslatorOptions {
  /** The company's texts (checked by companyTextProblems); those of the catalogue's language replace its messages. */
  companyTexts?: readonly CompanyText[];
  /** The zone dates are shown in: an IANA name ("UTC" for the services' mail and SMS); the runtime's own if none (the browser's). */
  timeZone?: string;
}

export interface Translator {
  readonly language: Language;
  /** The message, its placeholders filled; throws when a placeholder's value is missing. */
  format<N extends Namespace>(namespace: N, key: MessageKey<N>, values?: MessageValues): string;
}

/** Intl's formatters, cached like intl-messageformat's own (by their arguments), every date shown in one zone. */
const formattersIn = memoize(
  (timeZone: string | undefined): Formatters => ({
    getNumberFormat: memoize(
      (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
    ),
    getPluralRules: memoize(
      (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
    ),
    getDateTimeFormat: memoize(
      (locales?: string | string[], options?: Intl.DateTimeFormatOptions) =>
        new Intl.DateTimeFormat(locales, timeZone ? { ...options, timeZone } : options),
    ),
  }),
);

const compile = (message: string, language: Language, timeZone: string | undefined) =>
  new IntlMessageFormat(message, language, undefined, {
    ...parserOptions,
    formatters: formattersIn(timeZone),
  });

/**
 * The catalogues' messages compiled, by text, language and zone: compiling one costs up to half a
 * millisecond (a date's skeleton is resolved for the language), and they are few and fixed. A
 * company's texts are compiled each time they are used.
 */
const compiledMessage = memoize(compile);

/**
 * Formats the catalogue's messages, or the company's own texts where it has them for the language
 * (docs/decisions.md, "Languages"), as ICU MessageFormat: plurals by the language's rules, dates by
 * Intl in the given zone.
 */
export function translator(catalogue: Catalogue, options: TranslatorOptions = {}): Translator {
  const { language } = catalogue;
  const { timeZone } = options;
  const own = new Map(
    (options.companyTexts ?? [])
      .filter((text) => text.language === language)
      .map((text) => [`${text.namespace}\n${text.key}`, text.text]),
  );
  return {
    language,
    format(namespace, key, values) {
      const companyText = own.get(`${namespace}\n${key}`);
      const formatted = (
        companyText === undefined
          ? compiledMessage(catalogue.messages[namespace][key], language, timeZone)
          : compile(companyText, language, timeZone)
      ).format<string>(values);
      // Parts come back only for a value formatted as no text (a date in a plain placeholder),
      // which the rules of messages exclude.
      return Array.isArray(formatted) ? formatted.join("") : formatted;
    },
  };
}
