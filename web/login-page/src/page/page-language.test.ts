// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import type { Brand } from "./brand.js";
import { choosePageLanguage, startPageLanguage } from "./page-language.js";
import { errorText, pageTitle, text } from "./words.js";

const brand = (own: Partial<Brand> = {}): Brand => ({
  company_name: "Acme",
  logo_url: "",
  color: "",
  ...own,
});

describe("the page's language (docs/decisions.md, “Languages”)", () => {
  it("is the first of the browser's languages the suite speaks, a regional one its language", () => {
    expect(choosePageLanguage(["es-ES", "de-CH", "fr"], brand({ default_language: "fr" }))).toBe("de");
    expect(choosePageLanguage(["fr-CA", "en"], brand({ default_language: "de" }))).toBe("fr");
  });

  it("is the company's default where the browser asks for none the suite speaks", () => {
    expect(choosePageLanguage(["es-ES", "it"], brand({ default_language: "fr" }))).toBe("fr");
    expect(choosePageLanguage([], brand({ default_language: "de" }))).toBe("de");
  });

  it("is English where neither the browser nor the company names one, or the brand cannot be had", () => {
    expect(choosePageLanguage(["es"], brand())).toBe("en");
    expect(choosePageLanguage(["es"], undefined)).toBe("en");
  });

  it("is the document's language from the start, with its title and the words that show while the step loads", async () => {
    document.body.replaceChildren(document.createElement("main"));
    await startPageLanguage(brand({ default_language: "de" }), ["es"]);
    expect(document.documentElement.lang).toBe("de");
    expect(document.title).toBe("Acme – Anmelden");
    expect(document.querySelector("main")?.textContent).toBe("Wird geladen…");
  });

  it("names the step and the company in the document's title, or the step alone where the brand cannot be had", async () => {
    await startPageLanguage(brand(), ["fr"]);
    expect(pageTitle("Saisissez votre mot de passe")).toBe("Saisissez votre mot de passe – Acme");
    await startPageLanguage(undefined, ["fr"]);
    expect(pageTitle()).toBe("Connexion");
    expect(pageTitle("Saisissez votre mot de passe")).toBe("Saisissez votre mot de passe – Connexion");
  });

  it("shows dates and counts in the language's own form", async () => {
    const time = new Date("2026-11-15T12:00:00.000Z");
    await startPageLanguage(undefined, ["de"]);
    expect(text("events.when", { time })).toMatch(/^1[56]\. Nov\. 2026, \d\d:\d\d\.$/);
    expect(text("signedIn.otherSessionsEnded", { count: 2 })).toBe("2 andere Sitzungen wurden beendet.");
    await startPageLanguage(undefined, ["fr"]);
    expect(text("events.when", { time })).toMatch(/^1[56] nov\. 2026, \d\d:\d\d\.$/);
  });
});

describe("a company's own text (GET auth/brand's texts)", () => {
  const withTexts = brand({
    texts: [
      { language: "de", namespace: "page", key: "identify.title", text: "Bei Acme anmelden" },
      {
        language: "de",
        namespace: "errors",
        key: "auth.user.closed",
        text: "Dieses Acme-Konto ist geschlossen.",
      },
    ],
  });

  it("replaces the catalogue's message in its language", async () => {
    await startPageLanguage(withTexts, ["de"]);
    expect(text("identify.title")).toBe("Bei Acme anmelden");
    expect(errorText("auth.user.closed")).toBe("Dieses Acme-Konto ist geschlossen.");
    expect(text("password.title")).toBe("Passwort eingeben");
  });

  it("leaves the other languages their catalogue's message", async () => {
    await startPageLanguage(withTexts, ["en"]);
    expect(text("identify.title")).toBe("Sign in");
    expect(errorText("auth.user.closed")).toBe("This account is closed.");
    await startPageLanguage(withTexts, ["fr"]);
    expect(text("identify.title")).toBe("Connexion");
  });
});
