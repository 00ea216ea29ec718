import { catalogues, type Language, type MessageKey, type MessageValues, translator } from "@auth/i18n";
import { pageRoutes, type RunningLoginPage } from "@auth/login-page";
import { testBudgets } from "@auth/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  accessibilityViolations,
  chromiumInstalled,
  computedStyle,
  launchChromium,
  Screenshots,
} from "./support/browser.js";
import { createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { serveCompanyPage } from "./support/login-page-site.js";
import { lastOtp } from "./support/outbox.js";
import { lookAtEveryWidth as lookAtWidths, screens } from "./support/page-widths.js";
import { totpCode } from "./support/totp.js";

/**
 * The company's logo. Its URL must be https (docs/decisions.md, "Brand"): the browser's requests
 * for it are answered by the test (Playwright's routing), after the page's content security policy
 * has let them go, so no certificate or outside host is needed.
 */
const logoUrl = "https://brand.example/logo.svg";
const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">
<rect width="40" height="40" rx="8" fill="#7a1f5c"/><text x="52" y="28" font-family="sans-serif" font-size="22" fill="#7a1f5c">Brand</text>
</svg>`;
/** The brand's colour, #7a1f5c, as the browser computes it. */
const brandColour = "rgb(122, 31, 92)";
/** The page's own accent, #0b57d0, where a company has none. */
const pageColour = "rgb(11, 87, 208)";
const password = "first-Password-1";

/** The languages the page speaks, each the test browser's in one walk (Playwright's `locale`). */
const walks: Language[] = ["en", "de", "fr"];

/**
 * The company's brand on the reference login page (docs/decisions.md, "Brand" and "Reference login
 * page"), every step at desktop and phone width, in Chromium, on the shared suite.
 */
describe.skipIf(!chromiumInstalled())(
  "the company's brand on the reference login page, at desktop and phone width, in Chromium",
  // The walk through every step, each looked at by axe at two widths, takes a few test budgets on a loaded machine.
  { timeout: 4 * testBudgets.testMs },
  () => {
    let browser: Browser;
    let company: TestCompany;
    let page: RunningLoginPage;
    let pageUrl: string;
    let context: BrowserContext | undefined;
    const screenshots = new Screenshots("login-page-brand");

    beforeAll(async () => {
      [browser, { url: pageUrl, company, page }] = await Promise.all([
        launchChromium(),
        serveCompanyPage({ brand: { logoUrl, color: "#7a1f5c" } }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([page?.close(), browser?.close()]);
    });
    afterEach(async () => {
      await context?.close();
    });

    const companyName = () => `Test ${company.code}`;
    const logo = (tab: Page) => tab.getByRole("banner").getByRole("img", { name: companyName() });

    /** A new browser speaking `language` with a screen of this size at the page; the logo's requests answered as `logoAnswer` says. */
    async function open(
      language: Language,
      screen: { width: number; height: number },
      logoAnswer: "logo" | "not found" = "logo",
    ): Promise<Page> {
      context = await browser.newContext({
        locale: language,
        viewport: { width: screen.width, height: screen.height },
      });
      await context.route(logoUrl, (route) =>
        logoAnswer === "logo"
          ? route.fulfill({ contentType: "image/svg+xml", body: logoSvg })
          : route.fulfill({ status: 404, body: "" }),
      );
      const tab = await context.newPage();
      await tab.goto(pageUrl);
      await tab.getByRole("heading", { level: 1 }).waitFor();
      return tab;
    }

    describe.each(walks)("in %s", (language) => {
      const words = translator(catalogues[language]);
      /** The page's text in this walk's language. */
      const say = (key: MessageKey<"page">, values?: MessageValues) => words.format("page", key, values);
      const heading = (tab: Page, key: MessageKey<"page">) =>
        tab.getByRole("heading", { level: 1, name: say(key) }).waitFor();

      /** The step at every width of `screens`, under `<language>/<width>/`. */
      const lookAtEveryWidth = (tab: Page, step: string) => lookAtWidths(tab, screenshots, language, step);

      async function identify(tab: Page, who: TestUser): Promise<void> {
        await tab.getByLabel(say("common.loginId"), { exact: true }).fill(who.loginName);
        await tab.getByRole("button", { name: say("common.continue") }).click();
        await heading(tab, "password.title");
      }

      /** The first step of a recovery, with this way and the captcha, then Continue. */
      async function recover(tab: Page, who: TestUser, method: MessageKey<"page">): Promise<void> {
        await tab.getByRole("button", { name: say("common.forgotPassword") }).click();
        await heading(tab, "recoveryStart.title");
        await tab.getByLabel(say("common.loginId"), { exact: true }).fill(who.loginName);
        await tab.getByRole("radio", { name: say(method) }).check();
        await tab.getByRole("checkbox", { name: say("captcha.notRobot") }).check();
      }

      it("speaks the browser's language and shows the company's logo and colour on every step, each within the screen's edges at 1280 and 360 px, with no axe violation", async () => {
        const ann = await createUser(company, {
          password,
          secondFactorRequired: true,
          passwordChangeRequired: true,
          controlQuestion: "Which city were you born in?",
          controlAnswer: "Springfield",
        });
        const tab = await open(language, screens[0]);

        // The browser's language, as the document's and in its title with the company's name.
        expect(await tab.locator("html").getAttribute("lang")).toBe(language);
        expect(await tab.title()).toBe(
          say("document.companyStepTitle", { step: say("identify.title"), company: companyName() }),
        );
        // The logo, named by the company, atop the card; the company's colour on buttons and the focus ring.
        await expect
          .poll(() => logo(tab).evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
          .toBe(160);
        expect(await logo(tab).getAttribute("src")).toBe(logoUrl);
        const continueButton = tab.getByRole("button", { name: say("common.continue") });
        expect(await computedStyle(continueButton, "background-color")).toBe(brandColour);
        const loginId = tab.getByLabel(say("common.loginId"), { exact: true });
        await loginId.focus();
        expect(await computedStyle(loginId, "outline-color")).toBe(brandColour);
        await lookAtEveryWidth(tab, "sign-in");

        await identify(tab, ann);
        const passwordField = tab.getByLabel(say("password.label"), { exact: true });
        await passwordField.fill(password);
        await tab.getByRole("button", { name: say("common.showPassword") }).click();
        expect(await passwordField.getAttribute("type")).toBe("text");
        await lookAtEveryWidth(tab, "password-shown");
        await tab.getByRole("button", { name: say("common.hidePassword") }).click();
        await tab.getByRole("button", { name: say("common.signIn"), exact: true }).click();

        await heading(tab, "otp.smsTitle");
        await lookAtEveryWidth(tab, "sms-code");
        await tab.getByRole("button", { name: say("otp.useBackupCodeInstead") }).click();
        await heading(tab, "otp.backupCodeTitle");
        await lookAtEveryWidth(tab, "backup-code");
        await tab.getByRole("button", { name: say("otp.useSmsInstead") }).click();
        await tab.getByLabel(say("otp.smsLabel"), { exact: true }).fill(lastOtp(company.id, ann.phone));
        await tab.getByRole("button", { name: say("common.continue") }).click();

        await heading(tab, "newPassword.title");
        await tab.getByLabel(say("newPassword.label"), { exact: true }).fill("second-Password-2-long");
        await lookAtEveryWidth(tab, "new-password");
        await tab.getByRole("button", { name: say("newPassword.save") }).click();

        await heading(tab, "signedIn.title");
        const device = say("sessions.device", { browser: "Chrome", os: "Linux" });
        await tab
          .getByRole("region", { name: say("sessions.heading") })
          .getByText(device)
          .waitFor();
        await lookAtEveryWidth(tab, "signed-in");

        await tab.getByRole("button", { name: say("authenticator.setUp") }).click();
        const link = tab.getByRole("link", { name: say("authenticator.openApp") });
        const secret = new URL((await link.getAttribute("href")) ?? "").searchParams.get("secret") ?? "";
        await tab.getByRole("img", { name: say("authenticator.qrLabel") }).waitFor();
        await lookAtEveryWidth(tab, "authenticator-setup");
        await tab.getByLabel(say("authenticator.codeLabel"), { exact: true }).fill(await totpCode(secret));
        await tab.getByRole("button", { name: say("authenticator.confirm") }).click();
        await tab.getByText(say("backupCodes.first")).waitFor();
        await lookAtEveryWidth(tab, "backup-codes");

        await tab.getByRole("button", { name: say("signedIn.signOut") }).click();
        await heading(tab, "identify.title");
        await recover(tab, ann, "recoveryStart.methodQuestion");
        await lookAtEveryWidth(tab, "recover");
        await tab.getByRole("button", { name: say("common.continue") }).click();
        await heading(tab, "question.title");
        await tab.getByLabel("Which city were you born in?", { exact: true }).fill("Springfield");
        await lookAtEveryWidth(tab, "control-question");
        await tab.getByRole("button", { name: say("common.continue") }).click();
        await heading(tab, "newPassword.title");
        await tab.getByLabel(say("newPassword.label"), { exact: true }).fill("recovered-Password-3-long");
        await tab.getByRole("button", { name: say("newPassword.save") }).click();
        await heading(tab, "passwordChanged.title");
        await lookAtEveryWidth(tab, "password-changed");

        await tab.getByRole("button", { name: say("common.signIn") }).click();
        await identify(tab, ann);
        await tab.getByLabel(say("password.label"), { exact: true }).fill("recovered-Password-3-long");
        await tab.getByRole("button", { name: say("common.signIn"), exact: true }).click();
        await heading(tab, "otp.appTitle");
        await lookAtEveryWidth(tab, "app-code");
        await tab.getByLabel(say("otp.appLabel"), { exact: true }).fill(await totpCode(secret, 1));
        await tab.getByRole("button", { name: say("common.continue") }).click();
        await heading(tab, "signedIn.title");

        await tab.getByRole("button", { name: say("signedIn.signOut") }).click();
        await heading(tab, "identify.title");
        await recover(tab, ann, "recoveryStart.methodMail");
        await tab.getByRole("button", { name: say("common.continue") }).click();
        await heading(tab, "mailSent.title");
        await lookAtEveryWidth(tab, "mail-sent");

        await tab.goto(`${pageUrl}${pageRoutes.recoveryLink}?token=not-a-link-token`);
        await heading(tab, "recoveryLink.title");
        await logo(tab).waitFor();
        await lookAtEveryWidth(tab, "link-not-usable");
      });
    });

    it("shows the company's name where its logo does not load", async () => {
      const tab = await open("en", screens[1], "not found");
      await tab.getByRole("banner").getByText(companyName(), { exact: true }).waitFor();
      expect(await tab.getByRole("banner").getByRole("img").count()).toBe(0);
      await screenshots.take(tab, "fallbacks", "name-for-a-missing-logo");
      expect(await accessibilityViolations(tab)).toEqual([]);
    });

    it("works unbranded, in its own colour and in the browser's language, when the brand cannot be had", async () => {
      context = await browser.newContext({ locale: "de" });
      await context.route("**/v2/auth/brand", (route) => route.abort("connectionrefused"));
      const tab = await context.newPage();
      await tab.goto(pageUrl);
      const german = translator(catalogues.de);
      await tab.getByRole("heading", { level: 1, name: german.format("page", "identify.title") }).waitFor();
      expect(await tab.title()).toBe(
        german.format("page", "document.stepTitle", { step: german.format("page", "identify.title") }),
      );
      expect(await tab.getByRole("banner").isHidden()).toBe(true);
      const continueButton = tab.getByRole("button", { name: german.format("page", "common.continue") });
      expect(await computedStyle(continueButton, "background-color")).toBe(pageColour);
      const who = await createUser(company, { password });
      await tab.getByLabel(german.format("page", "common.loginId"), { exact: true }).fill(who.loginName);
      await continueButton.click();
      await tab.getByRole("heading", { level: 1, name: german.format("page", "password.title") }).waitFor();
      await screenshots.take(tab, "fallbacks", "unbranded");
    });
  },
);
