import { type RunningLoginPage, serveLoginPage } from "@auth/login-page";
import { freePorts } from "@auth/runtime";
import { testBudgets } from "@auth/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import {
  accessibilityViolations,
  addVirtualAuthenticator,
  chromiumInstalled,
  isFocused,
  launchChromium,
  Screenshots,
  type VirtualAuthenticator,
} from "./support/browser.js";
import { createCompany, createUser, type TestCompany, type TestUser } from "./support/fixtures.js";

const password = "first-Password-1";

/**
 * The reference login page's passkeys (docs/decisions.md, "Passkeys" and "Reference login page"),
 * in Chromium with its virtual authenticator, which answers the browser's passkey dialogs itself.
 * The page is opened at localhost: the company's relying party, as an IP address cannot be one.
 */
describe.skipIf(!chromiumInstalled())(
  "passkeys on the reference login page, in Chromium",
  { timeout: 2 * testBudgets.testMs },
  () => {
    let browser: Browser;
    let company: TestCompany;
    /** The company's page, at the origin its relying party lists. */
    let page: RunningLoginPage;
    let pageUrl: string;
    /** The same company's page at an origin its relying party does not list. */
    let elsewhere: RunningLoginPage;
    let elsewhereUrl: string;
    let context: BrowserContext | undefined;
    const screenshots = new Screenshots("login-page-passkeys");

    beforeAll(async () => {
      const [port, otherPort] = await freePorts(2);
      [pageUrl, elsewhereUrl] = [`http://localhost:${port}`, `http://localhost:${otherPort}`];
      [browser, company] = await Promise.all([
        launchChromium(),
        createCompany({ passkeys: { rpId: "localhost", origins: [pageUrl], allowPasswordless: true } }),
      ]);
      const serve = (port: number) =>
        serveLoginPage({
          gatewayUrl: inject("gatewayUrl"),
          companyCode: company.code,
          apiKey: company.apiKey,
          port,
        });
      [page, elsewhere] = await Promise.all([serve(port), serve(otherPort)]);
    });
    afterAll(async () => {
      await Promise.all([page?.close(), elsewhere?.close(), browser?.close()]);
    });
    afterEach(async () => {
      await context?.close();
    });

    /**
     * A new browser (no cookies, no storage) with a passkey authenticator, at the page. With
     * `autofill`, the browser offers passkeys in the login ID's autofill (conditional UI), where the
     * virtual authenticator picks the passkey at once, as a user would pick it there; without, it
     * is a browser that has no such autofill, where the first step's button is the way.
     */
    async function open(
      options: { url?: string; autofill?: boolean } = {},
    ): Promise<{ tab: Page; authenticator: VirtualAuthenticator }> {
      context = await browser.newContext();
      if (!options.autofill)
        await context.addInitScript(() => {
          const { PublicKeyCredential } = globalThis as unknown as { PublicKeyCredential: object };
          Reflect.deleteProperty(PublicKeyCredential, "isConditionalMediationAvailable");
        });
      const tab = await context.newPage();
      const authenticator = await addVirtualAuthenticator(tab);
      await tab.goto(options.url ?? pageUrl);
      await tab.getByRole("heading", { level: 1 }).waitFor();
      return { tab, authenticator };
    }

    const heading = (tab: Page, name: string) => tab.getByRole("heading", { level: 1, name }).waitFor();
    const alert = (tab: Page, text: string) => tab.getByRole("alert").filter({ hasText: text }).waitFor();
    const notice = (tab: Page, text: string) => tab.getByRole("status").filter({ hasText: text }).waitFor();
    const passkeyList = (tab: Page) => tab.getByRole("region", { name: "Passkeys" }).getByRole("listitem");

    /** A screenshot of the view, which axe finds nothing wrong with. */
    async function look(tab: Page, flow: string, step: string): Promise<void> {
      await screenshots.take(tab, flow, step);
      expect(await accessibilityViolations(tab), `${flow}/${step}`).toEqual([]);
    }

    async function signedIn(tab: Page, who: TestUser): Promise<void> {
      await heading(tab, "You are signed in");
      await tab.getByText(`Your profile: ${who.profileMnemocode}.`).waitFor();
    }

    /** From the start: the login ID and the password. */
    async function withPassword(tab: Page, who: TestUser): Promise<void> {
      await tab.getByLabel("Phone number, e-mail or login name", { exact: true }).fill(who.loginName);
      await tab.getByRole("button", { name: "Continue" }).click();
      await heading(tab, "Enter your password");
      await tab.getByLabel("Password", { exact: true }).fill(password);
      await tab.getByRole("button", { name: "Sign in", exact: true }).click();
    }

    /** Signed in with the password: adds a passkey of this name in the signed-in view. */
    async function addPasskey(tab: Page, name: string): Promise<void> {
      await tab.getByLabel("Name of the new passkey", { exact: true }).fill(name);
      await tab.getByRole("button", { name: "Add a passkey" }).click();
      await notice(tab, `Your passkey “${name}” is added`);
    }

    /** A user with a password who adds a passkey on the page, and signs out. */
    async function userWithPasskey(tab: Page, name = "Test laptop"): Promise<TestUser> {
      const who = await createUser(company, { password });
      await withPassword(tab, who);
      await signedIn(tab, who);
      await addPasskey(tab, name);
      await signOut(tab);
      return who;
    }

    async function signOut(tab: Page): Promise<void> {
      await tab.getByRole("button", { name: "Sign out" }).click();
      await heading(tab, "Sign in");
    }

    describe("adding a passkey: auth/passkeys/enrol and auth/passkeys/confirm, then a login without a login ID", () => {
      it("adds a named passkey from the signed-in view, shows the first backup codes that came with it, and signs in with it from the login ID's autofill after signing out", async () => {
        const ann = await createUser(company, { password });
        const { tab, authenticator } = await open({ autofill: true });
        // The login ID field offers the site's passkeys in its autofill (conditional UI).
        expect(
          await tab
            .getByLabel("Phone number, e-mail or login name", { exact: true })
            .getAttribute("autocomplete"),
        ).toBe("username webauthn");
        await tab.getByRole("button", { name: "Sign in with a passkey" }).waitFor();
        await look(tab, "add-and-sign-in", "start");

        await withPassword(tab, ann);
        await signedIn(tab, ann);
        await tab.getByText("You have no passkeys yet.").waitFor();
        await look(tab, "add-and-sign-in", "no-passkeys");

        await addPasskey(tab, "Test laptop");
        // A first second factor, which this session, signed in with the password alone, may not get
        // backup codes after: the user had none, and the first set came with it (docs/decisions.md,
        // "Passkeys"), shown at once.
        await notice(tab, "Your first backup codes are below");
        const codes = tab.getByRole("region", { name: "Backup codes" }).getByRole("listitem");
        await codes.first().waitFor();
        expect(await codes.count()).toBe(10);
        expect(
          await isFocused(tab.getByText(/^Save these codes somewhere safe now: .+ Each works once\.$/)),
        ).toBe(true);
        const added = passkeyList(tab).filter({ hasText: "Test laptop" });
        // The virtual authenticator keeps its passkeys to itself: not synced (not backed up).
        await added.getByText(/^On one device or security key\. Added .+, not used yet\.$/).waitFor();
        expect(await authenticator.credentials()).toHaveLength(1);
        await look(tab, "add-and-sign-in", "passkey-added");

        // Back at the first step, the passkey picked in the autofill signs in: no login ID, no password.
        await tab.getByRole("button", { name: "Sign out" }).click();
        await signedIn(tab, ann);
        await added.filter({ hasText: /last used/ }).waitFor();
        await look(tab, "add-and-sign-in", "signed-in-from-autofill");

        // A new set from a session signed in with the passkey (level 2, fresh).
        await tab.getByRole("button", { name: "Get new backup codes" }).click();
        await codes.first().waitFor();
        expect(await codes.count()).toBe(10);
        expect(await isFocused(tab.getByText(/the codes you had before no longer work\.$/))).toBe(true);
        await look(tab, "add-and-sign-in", "backup-codes");
      });
    });

    describe("a passkey from the first step's button, in the password's place and as the second factor: auth/checkpasskey", () => {
      it("signs in with the passkey alone from the button, offers it at the password step, and asks for it after the password", async () => {
        const { tab } = await open();
        const bo = await userWithPasskey(tab);
        await look(tab, "passkey-login", "start");
        await tab.getByRole("button", { name: "Sign in with a passkey" }).click();
        await signedIn(tab, bo);
        await signOut(tab);

        await tab.getByLabel("Phone number, e-mail or login name", { exact: true }).fill(bo.loginName);
        await tab.getByRole("button", { name: "Continue" }).click();
        await heading(tab, "Enter your password");
        await tab.getByRole("button", { name: "Use your passkey instead" }).waitFor();
        await look(tab, "passkey-login", "password-or-passkey");
        await tab.getByRole("button", { name: "Use your passkey instead" }).click();
        await signedIn(tab, bo);
        await signOut(tab);

        // With the password first, the passkey is the second factor, before a backup code.
        await withPassword(tab, bo);
        await heading(tab, "Use your passkey");
        await tab.getByRole("button", { name: "Use a backup code instead" }).waitFor();
        await look(tab, "passkey-login", "second-factor");
        await tab.getByRole("button", { name: "Use your passkey", exact: true }).click();
        await signedIn(tab, bo);
        await look(tab, "passkey-login", "signed-in");
      });
    });

    describe("a page at an origin the company's relying party does not list", () => {
      it("has the passkey refused with auth.passkey.invalid and told, alone and as the second factor, whose button then goes", async () => {
        const { tab } = await open();
        const dee = await userWithPasskey(tab);
        await tab.goto(elsewhereUrl);
        await heading(tab, "Sign in");
        await tab.getByRole("button", { name: "Sign in with a passkey" }).click();
        await alert(tab, "The passkey was not accepted.");
        await heading(tab, "Sign in");
        await look(tab, "wrong-origin", "refused");

        await withPassword(tab, dee);
        await heading(tab, "Use your passkey");
        await tab.getByRole("button", { name: "Use your passkey", exact: true }).click();
        // The login's challenge is spent: the user goes on another way, or signs in again.
        await alert(tab, "The passkey was not accepted. Go on another way, or sign in again");
        expect(await tab.getByRole("button", { name: "Use your passkey", exact: true }).isHidden()).toBe(
          true,
        );
        await tab.getByRole("button", { name: "Use a backup code instead" }).waitFor();
        await look(tab, "wrong-origin", "second-factor-refused");
      });
    });

    describe("managing passkeys: auth/passkeys/list, rename and remove", () => {
      it("renames a passkey, removes it after asking, and a removed passkey no longer signs in", async () => {
        const { tab } = await open();
        const cy = await userWithPasskey(tab, "Old name");
        await withPassword(tab, cy);
        await heading(tab, "Use your passkey");
        await tab.getByRole("button", { name: "Use your passkey", exact: true }).click();
        await signedIn(tab, cy);

        await tab.getByRole("button", { name: "Rename Old name" }).click();
        const newName = tab.getByLabel("New name for Old name", { exact: true });
        expect(await isFocused(newName)).toBe(true);
        await look(tab, "manage", "rename");
        await newName.fill("Work phone");
        await tab.getByRole("button", { name: "Save the name" }).click();
        await notice(tab, "Your passkey “Old name” is now called “Work phone”.");
        await passkeyList(tab).filter({ hasText: "Work phone" }).waitFor();
        expect(await passkeyList(tab).count()).toBe(1);
        await look(tab, "manage", "renamed");

        await tab.getByRole("button", { name: "Remove Work phone" }).click();
        await tab.getByText("Remove “Work phone”? It will no longer sign you in.").waitFor();
        await look(tab, "manage", "remove-asked");
        await tab.getByRole("button", { name: "Remove Work phone" }).click();
        await notice(tab, "Your passkey “Work phone” is removed.");
        await tab.getByText("You have no passkeys yet.").waitFor();
        await look(tab, "manage", "removed");

        // The authenticator still has it; the company no longer knows it.
        await signOut(tab);
        await tab.getByRole("button", { name: "Sign in with a passkey" }).click();
        await alert(tab, "The passkey was not accepted.");
        await look(tab, "manage", "removed-passkey-refused");
      });
    });
  },
);
