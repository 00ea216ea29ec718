import { errorCodes } from "@auth/errors";
import { SegmentedMessage } from "sms-segments-calculator";
import { describe, expect, it } from "vitest";
import type { MessageKey, Namespace } from "./catalogue.js";
import { catalogues } from "./catalogues.js";
import { languages, sourceLanguage } from "./languages.js";
import { messageProblems, sourceMessage } from "./message-rules.js";
import { parseMessage, usagesOf } from "./placeholders.js";
import { translator } from "./translator.js";

const english = catalogues[sourceLanguage].messages;
const namespaces = Object.keys(english) as Namespace[];
const translations = languages.filter((language) => language !== sourceLanguage);

/** Every message of every language, as [language, namespace, key, text]. */
const everyMessage = languages.flatMap((language) =>
  namespaces.flatMap((namespace) =>
    Object.entries(catalogues[language].messages[namespace]).map(
      ([key, text]) => [language, namespace, key as MessageKey<Namespace>, text] as const,
    ),
  ),
);

const placeholderNames = (text: string) =>
  [...new Set(usagesOf(parseMessage(text)).map(({ name }) => name))].sort();

describe("the catalogues", () => {
  it("speak English, German and French", () => {
    expect(Object.keys(catalogues)).toEqual(["en", "de", "fr"]);
    for (const language of languages) expect(catalogues[language].language).toBe(language);
  });

  it.each(translations)("%s has every key of English in every namespace, and no other", (language) => {
    for (const namespace of namespaces)
      expect(Object.keys(catalogues[language].messages[namespace]).sort(), namespace).toEqual(
        Object.keys(english[namespace]).sort(),
      );
  });

  it.each(everyMessage)(
    "%s %s %s parses, fits its length and uses its placeholders as English does",
    (_, namespace, key, text) => {
      expect(messageProblems(namespace, key, text)).toEqual([]);
    },
  );

  it.each(everyMessage.filter(([language]) => language !== sourceLanguage))(
    "%s %s %s has every placeholder English has",
    (_, namespace, key, text) => {
      expect(placeholderNames(text)).toEqual(placeholderNames(sourceMessage(namespace, key)));
    },
  );

  it("has a message for every error code of packages/errors, and for no other", () => {
    expect(Object.keys(english.errors).sort()).toEqual(Object.keys(errorCodes).sort());
  });
});

describe("the SMS texts", () => {
  const smsTexts = everyMessage.filter(
    ([, namespace, key]) => namespace === "sms" || (namespace === "notices" && key.endsWith(".sms")),
  );
  // A date in each month, as month names differ in their letters ("août").
  const times = Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(2025, month, 28, 23, 59)));

  it.each(smsTexts)(
    "%s %s %s stays in the GSM-7 alphabet, whose parts take 153 characters, not 67",
    (language, namespace, key) => {
      const translate = translator(catalogues[language], { timeZone: "UTC" });
      for (const time of times) {
        const text = translate.format(namespace, key, {
          code: "123456",
          minutes: 10,
          company: "Acme",
          device: "Chrome on Linux",
          time,
        });
        expect(new SegmentedMessage(text).encodingName, text).toBe("GSM-7");
      }
    },
  );

  it.each(languages)("%s carries a code in one SMS part at a lifetime of up to 60 minutes", (language) => {
    const translate = translator(catalogues[language]);
    for (const key of ["login", "recovery"] as const) {
      const text = translate.format("sms", key, { code: "12345678", minutes: 60 });
      expect(new SegmentedMessage(text).segmentsCount, text).toBe(1);
    }
  });
});
