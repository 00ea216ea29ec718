/** The languages the suite speaks (docs/decisions.md, "Languages"); English is the source of every text. */
export const languages = ["en", "de", "fr"] as const;

export type Language = (typeof languages)[number];

/** The language of the last resort, and the one every other is checked against. */
export const sourceLanguage: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}
