import { OtpPurpose } from "@auth/proto/otp";
import { describe, expect, it } from "vitest";
import { otpMessage } from "./messages.js";

const inLanguage = (requested: string, defaultLanguage = "en") => ({ requested, defaultLanguage, texts: [] });

describe('the SMS of a code, in the request\'s language (docs/decisions.md, "Languages")', () => {
  it.each([
    [
      "en",
      "Your login code is 123456. It expires in 5 minutes. Never share it.",
      "Your access recovery code is 123456. It expires in 5 minutes. Never share it.",
    ],
    [
      "de",
      "Ihr Anmeldecode lautet 123456. Er läuft in 5 Minuten ab. Geben Sie ihn niemals weiter.",
      "Ihr Code zur Wiederherstellung des Zugangs lautet 123456. Er läuft in 5 Minuten ab. Geben Sie ihn niemals weiter.",
    ],
    [
      "fr",
      "Votre code de connexion est 123456. Il expire dans 5 minutes. Ne le partagez jamais.",
      "Votre code de récupération d'accès est 123456. Il expire dans 5 minutes. Ne le partagez jamais.",
    ],
  ])("%s: the login and the recovery code", (language, login, recovery) => {
    expect(otpMessage(OtpPurpose.LOGIN, "123456", 5, inLanguage(language))).toBe(login);
    expect(otpMessage(OtpPurpose.RECOVERY, "123456", 5, inLanguage(language))).toBe(recovery);
  });

  it("counts the minutes by the language's plural rules", () => {
    expect(otpMessage(OtpPurpose.LOGIN, "123456", 1, inLanguage("de"))).toContain("in 1 Minute ab");
  });

  it("is the company's default language when the request names none or one the suite does not speak", () => {
    expect(otpMessage(OtpPurpose.LOGIN, "123456", 5, inLanguage("", "de"))).toMatch(/^Ihr Anmeldecode/);
    expect(otpMessage(OtpPurpose.LOGIN, "123456", 5, inLanguage("es", "fr"))).toMatch(/^Votre code/);
  });
});

describe("the company's own texts of the SMS", () => {
  const texts = [
    { language: "de", namespace: "sms", key: "login", text: "ACME: {code} ({minutes} Min.)" },
    { language: "de", namespace: "sms", key: "recovery", text: "ACME Wiederherstellung: {code}" },
  ];

  it("word the code's SMS of each purpose in their language", () => {
    const wording = { requested: "de", defaultLanguage: "en", texts };
    expect(otpMessage(OtpPurpose.LOGIN, "654321", 5, wording)).toBe("ACME: 654321 (5 Min.)");
    expect(otpMessage(OtpPurpose.RECOVERY, "654321", 5, wording)).toBe("ACME Wiederherstellung: 654321");
  });

  it("leave the other languages the catalogue's", () => {
    const wording = { requested: "en", defaultLanguage: "de", texts };
    expect(otpMessage(OtpPurpose.LOGIN, "654321", 5, wording)).toBe(
      "Your login code is 654321. It expires in 5 minutes. Never share it.",
    );
  });
});
