import { pathToFileURL } from "node:url";
import { messageTranslator } from "@auth/delivery";
import { eventNames, type KnownEvent, noticeMail, wordingOf } from "@auth/identity/testing";
import { type Brand, NotificationEvent } from "@auth/proto/identity";
import { recoveryMail } from "@auth/recovery/testing";
import { testBudgets } from "@auth/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityViolations,
  chromiumInstalled,
  launchChromium,
  Screenshots,
} from "./support/browser.js";

interface PreviewCompany {
  /** The folder of its previews under test-e2e/artifacts/mail/. */
  flow: string;
  name: string;
  brand?: Brand;
  recoveryPage: string;
}

/** The logo's URL: Chromium is handed `logo` for it, so the preview fetches nothing from outside. */
const logoUrl = "https://brand.acme.example/logo.svg";
const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="250" height="40" viewBox="0 0 250 40">
  <rect x="0" y="4" width="32" height="32" rx="8" fill="#ffffff"/>
  <path d="M8 29 L16 11 L24 29 M11.5 22 H20.5" stroke="#0b6e4f" stroke-width="3.5" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
  <text x="42" y="28" font-family="DejaVu Sans, Arial, sans-serif" font-size="21" font-weight="700" fill="#ffffff">Acme Logistics</text>
</svg>`;

const branded: PreviewCompany = {
  flow: "branded",
  name: "Acme Logistics",
  brand: { logoUrl, color: "#0b6e4f" },
  recoveryPage: "https://login.acme.example/recover",
};
const companies: PreviewCompany[] = [
  branded,
  { flow: "unbranded", name: "Northwind Traders", recoveryPage: "https://northwind.example/auth/recover" },
];
const sentAt = new Date("2026-03-14T09:26:00Z");
/** The new device's, which its notice names ("Firefox on Linux"). */
const userAgent = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const widths = { desktop: 800, phone: 360 } as const;
type Mail = ReturnType<typeof noticeMail>;

/** The recovery e-mail's button, in each language (docs/decisions.md, "Languages"). */
const buttonLabels = {
  en: "Set a new password",
  de: "Neues Passwort festlegen",
  fr: "Définir un nouveau mot de passe",
} as const;
type Language = keyof typeof buttonLabels;

/** The recovery e-mail and the notices of `events`, as recovery and identity build them for the company in the language. */
function mailsOf(company: PreviewCompany, language: Language, events: KnownEvent[]): Array<[string, Mail]> {
  const link = `${company.recoveryPage}?token=Zm9yIHRoZSBwcmV2aWV3IG9ubHk`;
  const wording = { defaultLanguage: language, texts: [] };
  const words = messageTranslator(wording);
  return [
    ["recovery", recoveryMail("preview", "ann@example.com", company, link, wording)],
    ...events.map((event): [string, Mail] => [
      eventNames[event],
      noticeMail(company, wordingOf(event, words, { company: company.name, time: sentAt, userAgent }), words),
    ]),
  ];
}

const previews = [
  // The recovery e-mail and every notice, with a brand and without.
  ...companies.flatMap((company) =>
    mailsOf(company, "en", Object.keys(eventNames) as KnownEvent[]).map(([mail, message]) => ({
      folder: company.flow,
      company,
      language: "en" as Language,
      mail,
      message,
    })),
  ),
  // The recovery e-mail and a notice in each language, under artifacts/mail/<language>/.
  ...(Object.keys(buttonLabels) as Language[]).flatMap((language) =>
    mailsOf(branded, language, [NotificationEvent.PASSWORD_CHANGED]).map(([mail, message]) => ({
      folder: language,
      company: branded,
      language,
      mail,
      message,
    })),
  ),
];

/** What the script below uses of the page (test-e2e compiles without the DOM's types). */
interface PageElement {
  innerText: string;
  naturalWidth?: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { left: number; right: number };
}
interface PageWindow {
  innerWidth: number;
  document: {
    documentElement: { scrollWidth: number; lang: string };
    querySelector(selector: string): PageElement | null;
  };
  getComputedStyle(element: PageElement): { backgroundColor: string };
}

/** How the e-mail lays out in a window of this width: what a reader would notice. */
const layoutOf = (page: Page) =>
  page.evaluate(() => {
    const window = globalThis as unknown as PageWindow;
    const { document } = window;
    const header = document.querySelector(".header") as PageElement;
    const card = (document.querySelector(".card") as PageElement).getBoundingClientRect();
    const button = document.querySelector("td[bgcolor] > a");
    return {
      lang: document.documentElement.lang,
      overflows: document.documentElement.scrollWidth > window.innerWidth,
      cardInset: Math.min(card.left, window.innerWidth - card.right),
      header: window.getComputedStyle(header).backgroundColor,
      headerText: header.innerText.trim(),
      logoWidth: document.querySelector(".header img")?.naturalWidth ?? 0,
      button: button && { label: button.innerText.trim(), href: button.getAttribute("href") },
    };
  });

const rgbOf = (hex: string) =>
  `rgb(${[1, 3, 5].map((offset) => Number.parseInt(hex.slice(offset, offset + 2), 16)).join(", ")})`;

describe.skipIf(!chromiumInstalled())(
  'previews of the e-mails in Chromium (docs/decisions.md, "Brand")',
  { timeout: testBudgets.testMs },
  () => {
    const screenshots = new Screenshots("mail");
    let browser: Browser;
    /**
     * One tab for every e-mail, each loaded in turn: a new tab is a new renderer process, where
     * axe-core's first check cost about 0.55 s of Chromium's CPU against 0.1 s in a tab that has
     * run it before (docs/performance.md, "A tab of its own costs a renderer").
     */
    let page: Page;

    beforeAll(async () => {
      browser = await launchChromium();
      const context = await browser.newContext();
      await context.route(logoUrl, (route) => route.fulfill({ contentType: "image/svg+xml", body: logo }));
      page = await context.newPage();
    }, testBudgets.hookMs);

    afterAll(async () => {
      await browser?.close();
    });

    it.each(previews)(
      "$folder: the $mail e-mail, at desktop and phone width",
      async ({ folder, company, language, mail, message }) => {
        const file = screenshots.save(folder, `${mail}.html`, message.html);
        // Loaded once and laid out again at each width, as a window resized: a load per width cost
        // Chromium about 0.1 s of CPU (docs/performance.md, "Where the end-to-end tests' time goes").
        await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
        for (const [name, width] of Object.entries(widths)) {
          await page.setViewportSize({ width, height: 900 });
          await screenshots.take(page, folder, `${mail}-${name}`);
          const layout = await layoutOf(page);
          expect(layout.lang).toBe(language);
          expect(layout.overflows, `wider than a ${width} px window`).toBe(false);
          expect(layout.cardInset, "the card keeps off the window's edges").toBeGreaterThanOrEqual(12);
          expect(layout.header).toBe(rgbOf(company.brand?.color ?? "#1f5fbf"));
          if (company.brand) expect(layout.logoWidth).toBeGreaterThan(0);
          else expect(layout.headerText).toBe(company.name);
          expect(layout.button).toEqual(
            mail === "recovery"
              ? { label: buttonLabels[language], href: expect.stringContaining(company.recoveryPage) }
              : null,
          );
        }
        // An e-mail is read inside the mail client's page, whose landmarks are the client's.
        expect(await accessibilityViolations(page, ["landmark-one-main", "region"])).toEqual([]);
      },
    );
  },
);
