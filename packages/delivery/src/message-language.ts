import { type CompanyText, catalogues, chooseLanguage, type Translator, translator } from "@auth/i18n";

/** What decides a message's words: the language its request chose, the company's default and own texts. */
export interface MessageWording {
  /** The request's language (SendOtpRequest.language, SendRecoveryLinkRequest.language); none for a notice. */
  requested?: string | undefined;
  /** The company's default language, as identity answers it. */
  defaultLanguage: string;
  /** The company's own texts, its single templates among them, as identity answers them. */
  texts: readonly CompanyText[];
}

/**
 * The words of a message a service sends (docs/decisions.md, "Languages"): in the language the
 * request chose, else the company's default, else English; the company's text in place of the
 * catalogue's where it has one in that language; dates in UTC.
 */
export function messageTranslator({ requested, defaultLanguage, texts }: MessageWording): Translator {
  const language = chooseLanguage({ requested, companyDefault: defaultLanguage });
  return translator(catalogues[language], { companyTexts: texts, timeZone: "UTC" });
}
