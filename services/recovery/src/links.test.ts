import type { MessageWording } from "@auth/delivery";
import { describe, expect, it } from "vitest";
import { recoveryLink, recoveryMail } from "./links.js";

describe("recovery link", () => {
  it("is the company's page with the token added to its query", () => {
    expect(recoveryLink("https://acme.example/recover?lang=en", "t0k")).toBe(
      "https://acme.example/recover?lang=en&token=t0k",
    );
  });
});

const acme = { name: "Acme", brand: { logoUrl: "", color: "#0b6e4f" } };
const link = "https://x/?token=1";
const english: MessageWording = { defaultLanguage: "en", texts: [] };
const mailIn = (requested: string, defaultLanguage = "en", texts: MessageWording["texts"] = []) =>
  recoveryMail("c1", "ann@example.com", acme, link, { requested, defaultLanguage, texts });

describe("recovery e-mail", () => {
  it("names the company, the link and its lifetime", () => {
    const mail = recoveryMail("c1", "ann@example.com", acme, link, english);
    expect(mail.subject).toBe("Recover access to your Acme account");
    expect(mail.text).toContain(link);
    expect(mail.text).toContain("30 minutes");
  });

  it("is HTML too, in the company's colour, with the link as a button and as text below it", () => {
    const { html } = recoveryMail("c1", "ann@example.com", acme, link, english);
    expect(html).toMatch(
      /<a\s+href="https:\/\/x\/\?token=1"[^>]*background:#0b6e4f[^>]*>\s*Set a new password\s*<\/a>/,
    );
    expect(html).toMatch(/<a class="link" href="https:\/\/x\/\?token=1"[^>]*>https:\/\/x\/\?token=1<\/a>/);
    expect(html).toContain("within 30 minutes (it works once):");
  });
});

describe('the recovery e-mail\'s language (docs/decisions.md, "Languages")', () => {
  it.each([
    ["en", "Recover access to your Acme account", "within 30 minutes (it works once)", "Set a new password"],
    [
      "de",
      "Zugang zu Ihrem Konto bei Acme wiederherstellen",
      "innerhalb von 30 Minuten (er funktioniert nur einmal)",
      "Neues Passwort festlegen",
    ],
    [
      "fr",
      "Récupérer l’accès à votre compte Acme",
      "dans les 30 minutes (il ne fonctionne qu’une seule fois)",
      "Définir un nouveau mot de passe",
    ],
  ])(
    "is the request's, %s: the subject, the body and the layout's words",
    (language, subject, body, button) => {
      const mail = mailIn(language);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(body);
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`<html lang="${language}"`);
      expect(mail.html).toMatch(new RegExp(`>\\s*${button}\\s*</a>`));
    },
  );

  it("is the company's default when the request names none or one the suite does not speak", () => {
    expect(mailIn("", "de").subject).toBe("Zugang zu Ihrem Konto bei Acme wiederherstellen");
    expect(mailIn("es", "fr").subject).toBe("Récupérer l’accès à votre compte Acme");
  });
});

describe("the company's own texts of the recovery e-mail", () => {
  const texts = [
    { language: "de", namespace: "mail", key: "recovery.subject", text: "{company}: Zugang" },
    {
      language: "de",
      namespace: "mail",
      key: "recovery.body",
      text: "Hier entlang: {link} ({minutes} Min.)",
    },
  ];

  it("word it in their language, with the link as a button", () => {
    const mail = mailIn("de", "en", texts);
    expect(mail).toMatchObject({
      subject: "Acme: Zugang",
      text: "Hier entlang: https://x/?token=1 (30 Min.)",
    });
    expect(mail.html).toMatch(/<a\s+href="https:\/\/x\/\?token=1"[^>]*>\s*Neues Passwort festlegen\s*<\/a>/);
  });

  it("leave the other languages the catalogue's", () => {
    expect(mailIn("en", "de", texts).subject).toBe("Recover access to your Acme account");
    expect(mailIn("fr", "de", texts).subject).toBe("Récupérer l’accès à votre compte Acme");
  });
});
