import { describe, expect, it } from "vitest";
import { catalogues } from "./catalogues.js";
import { translator } from "./translator.js";

const time = new Date(Date.UTC(2025, 2, 9, 21, 30));

describe("formatting a message", () => {
  it("fills its placeholders in the language's words", () => {
    expect(translator(catalogues.en).format("sms", "login", { code: "042917", minutes: 5 })).toBe(
      "Your login code is 042917. It expires in 5 minutes. Never share it.",
    );
    expect(translator(catalogues.de).format("page", "otp.smsIntro", { phone: "+49 •••• 12" })).toBe(
      "Wir haben einen 6-stelligen Code an +49 •••• 12 gesendet.",
    );
  });

  it("counts by the language's plural rules", () => {
    const en = translator(catalogues.en);
    expect(en.format("page", "signedIn.otherSessionsEnded", { count: 1 })).toBe("1 other session has ended.");
    expect(en.format("page", "signedIn.otherSessionsEnded", { count: 3 })).toBe(
      "3 other sessions have ended.",
    );
    expect(en.format("page", "wait.seconds", { seconds: 1 })).toBe("Try again in 1 second.");
    // French counts 0 and 1 as one.
    const fr = translator(catalogues.fr);
    expect(fr.format("page", "wait.seconds", { seconds: 0 })).toBe("Réessayez dans 0 seconde.");
    expect(fr.format("page", "wait.seconds", { seconds: 2 })).toBe("Réessayez dans 2 secondes.");
  });

  it("shows dates by Intl in the language's form and the zone asked for", () => {
    const values = { company: "Acme", time };
    expect(
      translator(catalogues.en, { timeZone: "UTC" }).format("notices", "locked_out.sms", values),
    ).toContain("locked on Mar 9, 2025 at 9:30 PM UTC");
    expect(
      translator(catalogues.de, { timeZone: "Europe/Berlin" }).format("notices", "locked_out.sms", values),
    ).toContain("am 9. März 2025 um 22:30 MEZ");
    expect(
      translator(catalogues.de, { timeZone: "UTC" }).format("notices", "locked_out.sms", values),
    ).toContain("am 9. März 2025 um 21:30 UTC");
    expect(
      translator(catalogues.fr, { timeZone: "UTC" }).format("notices", "locked_out.body", values),
    ).toContain("le 9 mars 2025 à 21:30 UTC");
  });

  it("names a choice in the language's words", () => {
    const de = translator(catalogues.de);
    expect(de.format("page", "events.factorEnrolled", { factor: "app_code" })).toBe(
      "Authenticator-App hinzugefügt",
    );
    expect(de.format("page", "events.factorEnrolled", { factor: "something_new" })).toBe(
      "Anmeldemethode hinzugefügt",
    );
  });

  it("refuses to format a message whose placeholder has no value", () => {
    expect(() => translator(catalogues.en).format("sms", "login", { code: "042917" })).toThrow(/minutes/);
  });
});

describe("a company's own texts", () => {
  const companyTexts = [
    { language: "de", namespace: "sms", key: "login", text: "{code} ist Ihr Code für Acme." },
    { language: "en", namespace: "page", key: "identify.title", text: "Sign in to Acme" },
  ];

  it("replace the catalogue's message in their language", () => {
    expect(
      translator(catalogues.de, { companyTexts }).format("sms", "login", { code: "042917", minutes: 5 }),
    ).toBe("042917 ist Ihr Code für Acme.");
    expect(translator(catalogues.en, { companyTexts }).format("page", "identify.title")).toBe(
      "Sign in to Acme",
    );
  });

  it("leave the other languages and messages as the catalogue has them", () => {
    expect(translator(catalogues.fr, { companyTexts }).format("page", "identify.title")).toBe("Connexion");
    expect(translator(catalogues.de, { companyTexts }).format("page", "identify.title")).toBe("Anmelden");
    expect(
      translator(catalogues.en, { companyTexts }).format("sms", "login", { code: "1", minutes: 1 }),
    ).toBe("Your login code is 1. It expires in 1 minute. Never share it.");
  });
});
