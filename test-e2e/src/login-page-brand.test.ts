import { pageRoutes, type RunningLoginPage, serveLoginPage } from "@auth/login-page";
import { freePort } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import {
  accessibilityViolations,
  cardLayout,
  chromiumInstalled,
  computedStyle,
  launchChromium,
  Screenshots,
} from "./support/browser.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { lastOtp } from "./support/outbox.js";
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

/** A screen of each kind: the card as before on a desktop, within the edges on a 360 px phone. */
const screens = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 360, height: 740 },
] as const;

/**
 * The company's brand on the reference login page (docs/decisions.md, "Brand" and "Reference login
 * page"), every step at desktop and phone width, in Chromium, on the shared suite.
 */
describe.skipIf(!chromiumInstalled())(
  "the company's brand on the reference login page, at desktop and phone width, in Chromium",
  // The walk through every step, each looked at by axe, takes a few test budgets on a loaded machine.
  { timeout: 4 * testBudgets.testMs },
  () => {
    let browser: Browser;
    let company: TestCompany;
    let page: RunningLoginPage;
    let pageUrl: string;
    let context: BrowserContext | undefined;
    const screenshots = new Screenshots("login-page-brand");

    beforeAll(async () => {
      pageUrl = `http://127.0.0.1:${await freePort()}`;
      [browser, company] = await Promise.all([
        launchChromium(),
        createCompany({
          brand: { logoUrl, color: "#7a1f5c" },
          recovery: {
            order: [],
            disabled: [],
            disabledByRole: {},
            linkBase: `${pageUrl}${pageRoutes.recoveryLink}`,
          },
        }),
      ]);
      page = await serveLoginPage({
        gatewayUrl: inject("gatewayUrl"),
        companyCode: company.code,
        apiKey: company.apiKey,
        port: Number(new URL(pageUrl).port),
      });
    });
    afterAll(async () => {
      await Promise.all([page?.close(), browser?.close()]);
    });
    afterEach(async () => {
      await context?.close();
    });

    const companyName = () => `Test ${company.code}`;
    const heading = (tab: Page, name: string) => tab.getByRole("heading", { level: 1, name }).waitFor();
    const logo = (tab: Page) => tab.getByRole("banner").getByRole("img", { name: companyName() });

    /** A new browser with a screen of this size at the page; the logo's requests answered as `logoAnswer` says. */
    async function open(
      screen: { width: number; height: number },
      logoAnswer: "logo" | "not found" = "logo",
    ): Promise<Page> {
      context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
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

    /** The step as it looks: a screenshot, no axe violation, the card within the screen's edges. */
    async function look(tab: Page, screen: string, step: string): Promise<void> {
      await screenshots.take(tab, screen, step);
      expect(await accessibilityViolations(tab), `${screen}/${step}`).toEqual([]);
      const { left, right, sideways } = await cardLayout(tab);
      expect(sideways, `${screen}/${step}: sideways scroll`).toBe(0);
      expect(Math.min(left, right), `${screen}/${step}: the card's margin`).toBeGreaterThanOrEqual(8);
    }

    async function identify(tab: Page, who: TestUser): Promise<void> {
      await tab.getByLabel("Phone number, e-mail or login name", { exact: true }).fill(who.loginName);
      await tab.getByRole("button", { name: "Continue" }).click();
      await heading(tab, "Enter your password");
    }

    /** The first step of a recovery, with this way and the captcha, then Continue. */
    async function recover(tab: Page, who: TestUser, method: string): Promise<void> {
      await tab.getByRole("button", { name: "Forgot your password?" }).click();
      await heading(tab, "Recover access");
      await tab.getByLabel("Phone number, e-mail or login name", { exact: true }).fill(who.loginName);
      await tab.getByRole("radio", { name: method }).check();
      await tab.getByRole("checkbox", { name: "I am not a robot" }).check();
    }

    describe.each(screens)("on a $name screen ($width px)", (screen) => {
      it("shows the company's logo and colour on every step, each within the screen's edges, with no axe violation", async () => {
        const ann = await createUser(company, {
          password,
          secondFactorRequired: true,
          passwordChangeRequired: true,
          controlQuestion: "Which city were you born in?",
          controlAnswer: "Springfield",
        });
        const tab = await open(screen);

        // The logo, named by the company, atop the card; the company's colour on buttons and the focus ring.
        await expect
          .poll(() => logo(tab).evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
          .toBe(160);
        expect(await logo(tab).getAttribute("src")).toBe(logoUrl);
        const continueButton = tab.getByRole("button", { name: "Continue" });
        expect(await computedStyle(continueButton, "background-color")).toBe(brandColour);
        const loginId = tab.getByLabel("Phone number, e-mail or login name", { exact: true });
        await loginId.focus();
        expect(await computedStyle(loginId, "outline-color")).toBe(brandColour);
        await look(tab, screen.name, "sign-in");

        await identify(tab, ann);
        const passwordField = tab.getByLabel("Password", { exact: true });
        await passwordField.fill(password);
        await tab.getByRole("button", { name: "Show password" }).click();
        expect(await passwordField.getAttribute("type")).toBe("text");
        await look(tab, screen.name, "password-shown");
        await tab.getByRole("button", { name: "Hide password" }).click();
        await tab.getByRole("button", { name: "Sign in", exact: true }).click();

        await heading(tab, "Enter the code from the SMS");
        await look(tab, screen.name, "sms-code");
        await tab.getByRole("button", { name: "Use a backup code instead" }).click();
        await heading(tab, "Enter a backup code");
        await look(tab, screen.name, "backup-code");
        await tab.getByRole("button", { name: "Use a code from an SMS instead" }).click();
        await tab.getByLabel("Code from the SMS", { exact: true }).fill(lastOtp(company.id, ann.phone));
        await tab.getByRole("button", { name: "Continue" }).click();

        await heading(tab, "Choose a new password");
        await tab.getByLabel("New password", { exact: true }).fill("second-Password-2-long");
        await look(tab, screen.name, "new-password");
        await tab.getByRole("button", { name: "Save the new password" }).click();

        await heading(tab, "You are signed in");
        await tab.getByRole("region", { name: "Your sessions" }).getByText("Chrome on Linux").waitFor();
        await look(tab, screen.name, "signed-in");

        await tab.getByRole("button", { name: "Set up authenticator app" }).click();
        const link = tab.getByRole("link", { name: "Open in an authenticator app on this device" });
        const secret = new URL((await link.getAttribute("href")) ?? "").searchParams.get("secret") ?? "";
        await tab.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
        await look(tab, screen.name, "authenticator-setup");
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(secret));
        await tab.getByRole("button", { name: "Confirm" }).click();
        await tab.getByText(/Your first backup codes are below/).waitFor();
        await look(tab, screen.name, "backup-codes");

        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");
        await recover(tab, ann, "My control question");
        await look(tab, screen.name, "recover");
        await tab.getByRole("button", { name: "Continue" }).click();
        await heading(tab, "Answer your control question");
        await tab.getByLabel("Which city were you born in?", { exact: true }).fill("Springfield");
        await look(tab, screen.name, "control-question");
        await tab.getByRole("button", { name: "Continue" }).click();
        await heading(tab, "Choose a new password");
        await tab.getByLabel("New password", { exact: true }).fill("recovered-Password-3-long");
        await tab.getByRole("button", { name: "Save the new password" }).click();
        await heading(tab, "Your password is changed");
        await look(tab, screen.name, "password-changed");

        await tab.getByRole("button", { name: "Sign in" }).click();
        await identify(tab, ann);
        await tab.getByLabel("Password", { exact: true }).fill("recovered-Password-3-long");
        await tab.getByRole("button", { name: "Sign in", exact: true }).click();
        await heading(tab, "Enter the code from your authenticator app");
        await look(tab, screen.name, "app-code");
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(secret, 1));
        await tab.getByRole("button", { name: "Continue" }).click();
        await heading(tab, "You are signed in");

        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");
        await recover(tab, ann, "A link by e-mail");
        await tab.getByRole("button", { name: "Continue" }).click();
        await heading(tab, "Check your e-mail");
        await look(tab, screen.name, "mail-sent");

        await tab.goto(`${pageUrl}${pageRoutes.recoveryLink}?token=not-a-link-token`);
        await heading(tab, "This link cannot be used");
        await logo(tab).waitFor();
        await look(tab, screen.name, "link-not-usable");
      });
    });

    it("shows the company's name where its logo does not load", async () => {
      const tab = await open(screens[1], "not found");
      await tab.getByRole("banner").getByText(companyName(), { exact: true }).waitFor();
      expect(await tab.getByRole("banner").getByRole("img").count()).toBe(0);
      await screenshots.take(tab, "fallbacks", "name-for-a-missing-logo");
      expect(await accessibilityViolations(tab)).toEqual([]);
    });

    it("works unbranded, in its own colour, when the brand cannot be had", async () => {
      context = await browser.newContext();
      await context.route("**/v2/auth/brand", (route) => route.abort("connectionrefused"));
      const tab = await context.newPage();
      await tab.goto(pageUrl);
      await heading(tab, "Sign in");
      expect(await tab.getByRole("banner").isHidden()).toBe(true);
      const continueButton = tab.getByRole("button", { name: "Continue" });
      expect(await computedStyle(continueButton, "background-color")).toBe(pageColour);
      const who = await createUser(company, { password });
      await identify(tab, who);
      await screenshots.take(tab, "fallbacks", "unbranded");
    });
  },
);
