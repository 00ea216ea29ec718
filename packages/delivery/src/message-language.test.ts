import { describe, expect, it } from "vitest";
import { messageTranslator } from "./message-language.js";

const time = new Date(Date.UTC(2026, 2, 14, 23, 26));
const sms = (translate: ReturnType<typeof messageTranslator>) =>
  translate.format("sms", "login", { code: "042917", minutes: 5 });

describe('the language of a message the services send (docs/decisions.md, "Languages")', () => {
  it("is the request's, a regional tag taking its language", () => {
    expect(messageTranslator({ requested: "de-CH", defaultLanguage: "fr", texts: [] }).language).toBe("de");
  });

  it("is the company's default when the request names none or one the suite does not speak", () => {
    expect(messageTranslator({ defaultLanguage: "fr", texts: [] }).language).toBe("fr");
    expect(messageTranslator({ requested: "", defaultLanguage: "fr", texts: [] }).language).toBe("fr");
    expect(messageTranslator({ requested: "es", defaultLanguage: "fr", texts: [] }).language).toBe("fr");
    expect(messageTranslator({ requested: "not a tag!", defaultLanguage: "de", texts: [] }).language).toBe(
      "de",
    );
  });

  it("is English when neither is one the suite speaks", () => {
    expect(messageTranslator({ requested: "es", defaultLanguage: "", texts: [] }).language).toBe("en");
  });
});

describe("the words of a message the services send", () => {
  const texts = [{ language: "de", namespace: "sms", key: "login", text: "Acme: {code}" }];

  it("are the company's text in its language, and the catalogue's in the others", () => {
    expect(sms(messageTranslator({ requested: "de", defaultLanguage: "en", texts }))).toBe("Acme: 042917");
    expect(sms(messageTranslator({ requested: "fr", defaultLanguage: "de", texts }))).toBe(
      "Votre code de connexion est 042917. Il expire dans 5 minutes. Ne le partagez jamais.",
    );
  });

  it("show dates in UTC, whatever the machine's zone", () => {
    const translate = messageTranslator({ defaultLanguage: "en", texts: [] });
    expect(translate.format("notices", "locked_out.sms", { company: "Acme", time })).toContain(
      "on Mar 14, 2026 at 11:26 PM UTC",
    );
  });
});
