import { catalogues, type Language, type MessageKey, type MessageValues, translator } from "@auth/i18n";
import { randomPhone } from "@auth/identity/fixtures";
import { pageRoutes, type RunningLoginPage } from "@auth/login-page";
import { testBudgets } from "@auth/testing";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import { chromiumInstalled, launchChromium, Screenshots } from "./support/browser.js";
import { createUser, type TestCompany, type TestUser } from "./support/fixtures.js";
import { serveCompanyPage } from "./support/login-page-site.js";
import { lastOtp, mailTo, recoveryLink } from "./support/outbox.js";
import { lookAtEveryWidth, screens } from "./support/page-widths.js";

const password = "first-Password-1";
const newPassword = "second-Password-2-long";

/** The languages of the walks: each the test browser's in its own (Playwright's `locale`). */
const walks: Language[] = ["en", "de"];

/**
 * The signed-in view's changes of the user's own account on the reference login page
 * (docs/decisions.md, "Reference login page"; docs/api-contract.md, "The user's own account"): the
 * password, the phone and the e-mail, each view at 1280 and 360 px, in Chromium, on the shared suite.
 */
describe.skipIf(!chromiumInstalled())(
  "the user's own account on the reference login page, in Chromium",
  // Each walk signs in and looks at every view with axe at two widths.
  { timeout: 2 * testBudgets.testMs },
  () => {
    let browser: Browser;
    let company: TestCompany;
    let page: RunningLoginPage;
    let pageUrl: string;
    let context: BrowserContext | undefined;
    const screenshots = new Screenshots("login-page-account");

    beforeAll(async () => {
      [browser, { url: pageUrl, company, page }] = await Promise.all([launchChromium(), serveCompanyPage()]);
    });
    afterAll(async () => {
      await Promise.all([page?.close(), browser?.close()]);
    });
    afterEach(async () => {
      await context?.close();
    });

    /** Signs in through the API, as another device would: the session's state. */
    const signInElsewhere = async (loginId: string, secret: string) =>
      (
        await call(company.code, "checkcredentials", {
          apiKey: company.apiKey,
          body: { login_id: loginId, password: secret },
        })
      ).body;

    describe.each(walks)("in %s", (language) => {
      const words = translator(catalogues[language]);
      const say = (key: MessageKey<"page">, values?: MessageValues) => words.format("page", key, values);
      const heading = (tab: Page, key: MessageKey<"page">) =>
        tab.getByRole("heading", { level: 1, name: say(key) }).waitFor();
      const region = (tab: Page, key: MessageKey<"page">) => tab.getByRole("region", { name: say(key) });
      const look = (tab: Page, flow: string, step: string) =>
        lookAtEveryWidth(tab, screenshots, `${language}/${flow}`, step);
      /** Waits for the text in the element, as it is once the page has answered. */
      const shows = (locator: Locator, text: string) => expect.poll(() => locator.textContent()).toBe(text);

      /** A new browser speaking this walk's language at the page, signed in as `who`. */
      async function signIn(who: TestUser): Promise<Page> {
        context = await browser.newContext({
          locale: language,
          viewport: { width: screens[0].width, height: screens[0].height },
        });
        const tab = await context.newPage();
        await tab.goto(pageUrl);
        await tab.getByLabel(say("common.loginId"), { exact: true }).fill(who.loginName);
        await tab.getByRole("button", { name: say("common.continue") }).click();
        await heading(tab, "password.title");
        await tab.getByLabel(say("password.label"), { exact: true }).fill(password);
        await tab.getByRole("button", { name: say("common.signIn"), exact: true }).click();
        await heading(tab, "signedIn.title");
        return tab;
      }

      it("changes the password: a wrong current password is refused, a weak new one refused with the rules, a right change ends the other session, keeps this one under its new token, and the old password no longer signs in", async () => {
        const ann = await createUser(company, { password });
        expect((await signInElsewhere(ann.loginName, password)).session_state).toBe("authorized");
        const tab = await signIn(ann);
        const section = region(tab, "passwordChange.heading");
        const current = section.getByLabel(say("passwordChange.currentLabel"), { exact: true });
        const next = section.getByLabel(say("newPassword.label"), { exact: true });
        const change = section.getByRole("button", { name: say("passwordChange.submit") });
        // Both password fields have their "Show password".
        expect(await section.getByRole("button", { name: say("common.showPassword") }).count()).toBe(2);
        await look(tab, "password", "signed-in");

        await current.fill("not-the-Password-9");
        await next.fill(newPassword);
        await change.click();
        await shows(section.getByRole("alert"), words.format("errors", "auth.password.invalid"));
        expect(await current.inputValue()).toBe("");
        expect(await next.inputValue()).toBe(newPassword);
        await look(tab, "password", "wrong-current-password");

        await current.fill(password);
        await next.fill("short-1");
        await section
          .getByRole("button", { name: say("common.showPassword") })
          .last()
          .click();
        expect(await next.getAttribute("type")).toBe("text");
        await change.click();
        // The refusal names the rules, as the gateway describes them.
        const refused = say("newPassword.refused", { rules: "" }).trim();
        await expect
          .poll(async () => (await section.getByRole("alert").textContent())?.startsWith(`${refused} `))
          .toBe(true);
        expect((await section.getByRole("alert").textContent())?.length).toBeGreaterThan(refused.length + 10);
        await look(tab, "password", "new-password-refused");

        await next.fill(newPassword);
        await change.click();
        await shows(
          section.getByRole("status"),
          `${say("passwordChange.done")} ${say("signedIn.otherSessionsEnded", { count: 1 })}`,
        );
        // Listed again with the new token: the other session is gone, this one stays.
        expect(await region(tab, "sessions.heading").getByRole("listitem").count()).toBe(1);
        expect(await current.inputValue()).toBe("");
        await look(tab, "password", "changed");
        expect((await signInElsewhere(ann.loginName, password)).error_code).toBe("auth.credentials.invalid");
        expect((await signInElsewhere(ann.loginName, newPassword)).session_state).toBe("authorized");

        // This session still works: it signs out with its new token.
        await tab.getByRole("button", { name: say("signedIn.signOut") }).click();
        await heading(tab, "identify.title");
        await tab.getByText(say("signedIn.signedOut")).waitFor();
      });

      it("changes the password and signs out here too", async () => {
        const ann = await createUser(company, { password });
        const tab = await signIn(ann);
        const section = region(tab, "passwordChange.heading");
        await section.getByLabel(say("newPassword.label"), { exact: true }).fill(newPassword);
        await section.getByRole("checkbox", { name: say("passwordChange.signOutHere") }).check();
        await section.getByRole("button", { name: say("passwordChange.submit") }).click();
        await heading(tab, "passwordChanged.title");
        await look(tab, "password-and-sign-out", "signed-out");
        expect((await signInElsewhere(ann.loginName, newPassword)).session_state).toBe("authorized");
      });

      it("changes the phone with the code sent to the new one, after which it signs in", async () => {
        const ann = await createUser(company, { password });
        const phone = randomPhone();
        const masked = `+1********${phone.slice(-2)}`;
        const tab = await signIn(ann);
        const section = region(tab, "phoneChange.heading");
        await section.getByLabel(say("phoneChange.label"), { exact: true }).fill(phone);
        await section.getByRole("button", { name: say("phoneChange.send") }).click();
        await shows(section.getByRole("status"), say("phoneChange.sent", { phone: masked }));
        const code = section.getByLabel(say("otp.smsLabel"), { exact: true });
        await look(tab, "phone", "code-sent");

        await code.fill(lastOtp(company.id, phone));
        await section.getByRole("button", { name: say("phoneChange.confirm") }).click();
        await shows(section.getByRole("status"), say("phoneChange.done", { phone: masked }));
        expect(await code.isHidden()).toBe(true);
        await look(tab, "phone", "changed");
        expect((await signInElsewhere(phone, password)).session_state).toBe("authorized");
        expect((await signInElsewhere(ann.phone, password)).error_code).toBe("auth.credentials.invalid");
      });

      it("changes the e-mail with the link sent to the new one, opened in the page without a session, once", async () => {
        const ann = await createUser(company, { password });
        const email = `new-${ann.loginName}@example.org`;
        const masked = `n${"*".repeat(email.indexOf("@") - 1)}@example.org`;
        const tab = await signIn(ann);
        const section = region(tab, "emailChange.heading");
        await section.getByLabel(say("emailChange.label"), { exact: true }).fill(email);
        await section.getByRole("button", { name: say("emailChange.send") }).click();
        await shows(section.getByRole("status"), say("emailChange.sent", { email: masked }));
        await look(tab, "email", "link-sent");

        const link = recoveryLink(mailTo(company.id, email).at(-1)?.text ?? "");
        expect(new URL(link).searchParams.get("email_token")).toBeTruthy();
        await tab.goto(link);
        await heading(tab, "emailLink.title");
        // The link's token left the address bar.
        expect(tab.url()).toBe(`${pageUrl}${pageRoutes.start}`);
        await look(tab, "email", "confirmed");
        expect((await signInElsewhere(email, password)).session_state).toBe("authorized");
        expect((await signInElsewhere(ann.email, password)).error_code).toBe("auth.credentials.invalid");

        await tab.goto(link);
        await heading(tab, "recoveryLink.title");
        await shows(tab.getByRole("alert"), `${say("recoveryLink.invalid")} ${say("emailLink.askNew")}`);
        await look(tab, "email", "link-used");
      });
    });
  },
);
