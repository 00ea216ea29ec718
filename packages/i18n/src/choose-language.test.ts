import { describe, expect, it } from "vitest";
import { acceptedLanguages } from "./accepted-languages.js";
import { chooseLanguage } from "./choose-language.js";

describe("the language of a request", () => {
  it("is the request's own field first", () => {
    expect(chooseLanguage({ requested: "fr", preferred: ["de", "en"], companyDefault: "en" })).toBe("fr");
  });

  it("is the user's most preferred language the suite speaks when the field names none", () => {
    expect(chooseLanguage({ requested: "ja", preferred: ["es", "de", "fr"], companyDefault: "fr" })).toBe(
      "de",
    );
    expect(chooseLanguage({ preferred: acceptedLanguages("en;q=0.5, fr;q=0.9, de;q=0.7") })).toBe("fr");
  });

  it("is the company's default when neither field nor preferences name a language the suite speaks", () => {
    expect(chooseLanguage({ requested: "ja", preferred: ["es", "pt-BR"], companyDefault: "de" })).toBe("de");
    expect(chooseLanguage({ companyDefault: "fr-CA" })).toBe("fr");
  });

  it("is English when nothing else names a language the suite speaks", () => {
    expect(chooseLanguage({})).toBe("en");
    expect(chooseLanguage({ requested: "ja", preferred: ["es"], companyDefault: "it" })).toBe("en");
  });

  it("takes a regional tag as its language", () => {
    expect(chooseLanguage({ requested: "de-CH" })).toBe("de");
    expect(chooseLanguage({ preferred: ["fr-BE"] })).toBe("fr");
    expect(chooseLanguage({ requested: "EN-gb" })).toBe("en");
  });

  it("passes over a tag that is no language tag, as if it were not there", () => {
    expect(chooseLanguage({ requested: "not a tag", preferred: ["*", "??"], companyDefault: "de" })).toBe(
      "de",
    );
    expect(chooseLanguage({ requested: "", companyDefault: "fr" })).toBe("fr");
  });
});
