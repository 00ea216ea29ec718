export { acceptedLanguages } from "./accepted-languages.js";
export { type BrowserModuleFiles, browserImports, browserModuleFiles } from "./browser-modules.js";
export type { Catalogue, MessageKey, Messages, Namespace } from "./catalogue.js";
export { catalogues } from "./catalogues.js";
export { chooseLanguage, type LanguageWishes } from "./choose-language.js";
export { type CompanyText, type CompanyTextProblem, companyTextProblems } from "./company-texts.js";
export { isLanguage, type Language, languages, sourceLanguage } from "./languages.js";
export { lengthLimits, type MessageProblem, messageProblems } from "./message-rules.js";
export { type MessageValues, type Translator, type TranslatorOptions, translator } from "./translator.js";
