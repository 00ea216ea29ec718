import { randomBytes } from "node:crypto";
import { type OAuthButton, pageRoutes, type RunningLoginPage, serveLoginPage } from "@auth/login-page";
import { ProviderKind } from "@auth/proto/identity";
import { freePorts } from "@auth/runtime";
import { startOwnSuite } from "@auth/suite/testing";
import { testBudgets } from "@auth/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, expectError, expectSuccess } from "./support/api.js";
import {
  accessibilityViolations,
  chromiumInstalled,
  descriptionOf,
  isFocused,
  launchChromium,
  Screenshots,
} from "./support/browser.js";
import {
  createCompany,
  createDisclaimer,
  createUser,
  generateBackupCodes,
  linkOAuthIdentity,
  operatorOf,
  setOAuthProvider,
  type TestCompany,
  type TestUser,
  type UserOptions,
} from "./support/fixtures.js";
import { oidcClient, TestOidcProvider } from "./support/oidc-provider.js";
import { lastOtp, mailTo, recoveryLink, smsTo } from "./support/outbox.js";
import { totpCode } from "./support/totp.js";

const passwordRules = "At least 10 characters, with letters and digits.";
/** The rules every company's users have, before the company's regex, for a user without a second factor. */
const newPasswordRules =
  "At least 15 and at most 256 characters. Not a common or breached password. Not containing the company's name or code, nor your login name, the name of your e-mail or your phone number. Not the current password.";
const resendCooldownSeconds = 15;
const iPhoneSafari =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const windowsFirefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
const oauthSlot = 1;
/** The same provider again, for logins no older than max_age, whose button sends it. */
const maxAgeSlot = 2;
const maxAgeSeconds = 300;

/** A company with its own login page, on a port chosen before the company so that its links can name it. */
interface Site {
  url: string;
  company: TestCompany;
  page: RunningLoginPage;
}

// Each flow drives several steps in a browser (one waits out a resend cooldown): twice a test's budget.
describe.skipIf(!chromiumInstalled())(
  "the reference login page, in Chromium",
  {
    timeout: 2 * testBudgets.testMs,
  },
  () => {
    let suite: Awaited<ReturnType<typeof startOwnSuite>>;
    let browser: Browser;
    let oidc: TestOidcProvider;
    /** No disclaimers: the password, SMS, backup code, new password and recovery flows. */
    let plain: Site;
    /** A disclaimer to accept, and the OpenID Connect provider in slot 1. */
    let withTerms: Site;
    const oauthAccount = `browser-${randomBytes(4).toString("hex")}`;
    /** The account at the provider of a user who must pass a second factor (slot 2, with max_age). */
    const secondFactorAccount = `browser-2fa-${randomBytes(4).toString("hex")}`;
    const screenshots = new Screenshots("login-page");
    let context: BrowserContext | undefined;

    const serve = (url: string, company: TestCompany, providers: OAuthButton[] = []) =>
      serveLoginPage({
        gatewayUrl: suite.suite.gatewayUrl,
        companyCode: company.code,
        apiKey: company.apiKey,
        providers,
        port: Number(new URL(url).port),
      });

    beforeAll(async () => {
      [suite, browser] = await Promise.all([
        startOwnSuite({
          // The tests' OpenID Connect provider is plain HTTP on loopback.
          identity: { OAUTH_ALLOW_INSECURE_HTTP: "true" },
          // Long enough to be met by the click right after a send on a loaded machine (a full-page
          // screenshot comes in between), short enough to wait for in a test.
          otp: { OTP_RESEND_COOLDOWN_SECONDS: String(resendCooldownSeconds) },
        }),
        launchChromium(),
      ]);
      const operator = operatorOf(suite.suite);
      const [plainPort, termsPort] = await freePorts(2);
      const [plainUrl, termsUrl] = [`http://127.0.0.1:${plainPort}`, `http://127.0.0.1:${termsPort}`];
      oidc = await TestOidcProvider.start([`${termsUrl}${pageRoutes.oauthCallback}`]);

      const plainCompany = await createCompany(
        {
          captchaAfterFailures: 2,
          passwordRegex: "^(?=.*[A-Za-z])(?=.*[0-9]).{10,}$",
          passwordRegexDescription: passwordRules,
          recovery: {
            order: [],
            disabled: [],
            disabledByRole: {},
            linkBase: `${plainUrl}${pageRoutes.recoveryLink}`,
          },
        },
        operator,
      );
      const termsCompany = await createCompany({}, operator);
      await createDisclaimer(termsCompany, "terms");
      await setOAuthProvider(termsCompany, {
        slot: oauthSlot,
        kind: ProviderKind.OIDC,
        name: "Test Provider",
        issuer: oidc.issuer,
        clientId: oidcClient.clientId,
        clientSecret: oidcClient.clientSecret,
        redirectUris: [`${termsUrl}${pageRoutes.oauthCallback}`],
      });
      await setOAuthProvider(termsCompany, {
        slot: maxAgeSlot,
        kind: ProviderKind.OIDC,
        name: "Test Provider, recent login",
        issuer: oidc.issuer,
        clientId: oidcClient.clientId,
        clientSecret: oidcClient.clientSecret,
        redirectUris: [`${termsUrl}${pageRoutes.oauthCallback}`],
        maxAgeSeconds,
      });
      plain = { url: plainUrl, company: plainCompany, page: await serve(plainUrl, plainCompany) };
      withTerms = {
        url: termsUrl,
        company: termsCompany,
        page: await serve(termsUrl, termsCompany, [
          {
            slot: oauthSlot,
            label: "Test Provider",
            // The test provider finishes its login and consent by itself for the account in login_hint.
            authorizationUrl: `${oidc.issuer}/auth?login_hint=${oauthAccount}`,
            clientId: oidcClient.clientId,
            scope: "openid email",
          },
          {
            slot: maxAgeSlot,
            label: "Test Provider, recent login",
            authorizationUrl: `${oidc.issuer}/auth?login_hint=${secondFactorAccount}`,
            clientId: oidcClient.clientId,
            scope: "openid email",
            maxAge: maxAgeSeconds,
          },
        ]),
      };
    });
    afterAll(async () => {
      await Promise.all([plain?.page.close(), withTerms?.page.close(), oidc?.stop(), browser?.close()]);
      await suite?.stop();
    });
    afterEach(async () => {
      await context?.close();
    });

    /** A new browser (no cookies, no storage) at the site's login page. */
    async function open(site: Site, path: string = pageRoutes.start): Promise<Page> {
      context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(`${site.url}${path}`);
      await tab.getByRole("heading", { level: 1 }).waitFor();
      return tab;
    }

    const heading = (tab: Page, name: string) => tab.getByRole("heading", { level: 1, name }).waitFor();
    const alert = (tab: Page, text: string) => tab.getByRole("alert").filter({ hasText: text }).waitFor();
    const user = (site: Site, options: UserOptions = {}) =>
      createUser(site.company, { password: "first-Password-1", ...options });

    /** From the start: types the login ID and moves on. */
    async function identify(tab: Page, who: TestUser): Promise<void> {
      await tab.getByLabel("Phone number, e-mail or login name", { exact: true }).fill(who.loginName);
      await tab.getByRole("button", { name: "Continue" }).click();
    }

    async function signedIn(tab: Page, who: TestUser): Promise<void> {
      await heading(tab, "You are signed in");
      await tab.getByText(`Your profile: ${who.profileMnemocode}.`).waitFor();
    }

    /** From the start: recovery/recover with this method and the captcha. */
    async function startRecovery(tab: Page, who: TestUser, method: string, flow: string): Promise<void> {
      await tab.getByRole("button", { name: "Forgot your password?" }).click();
      await heading(tab, "Recover access");
      await tab.getByLabel("Phone number, e-mail or login name", { exact: true }).fill(who.loginName);
      await tab.getByRole("radio", { name: method }).check();
      await tab.getByRole("checkbox", { name: "I am not a robot" }).check();
      await screenshots.take(tab, flow, "recover");
      await tab.getByRole("button", { name: "Continue" }).click();
    }

    /** recovery-setpassword, then signing in with the new password. */
    async function setPasswordAndSignIn(tab: Page, who: TestUser, flow: string): Promise<void> {
      await heading(tab, "Choose a new password");
      expect(await descriptionOf(tab.getByLabel("New password", { exact: true }))).toContain(passwordRules);
      await screenshots.take(tab, flow, "new-password");
      await tab.getByLabel("New password", { exact: true }).fill("recovered-Password-2");
      await tab.getByRole("button", { name: "Save the new password" }).click();
      await heading(tab, "Your password is changed");
      await screenshots.take(tab, flow, "password-changed");
      await tab.getByRole("button", { name: "Sign in" }).click();
      await identify(tab, who);
      await heading(tab, "Enter your password");
      await tab.getByLabel("Password", { exact: true }).fill("recovered-Password-2");
      await tab.keyboard.press("Enter");
      await signedIn(tab, who);
    }

    /** From the start: the login ID and the password, up to the step after the password. */
    async function withPassword(tab: Page, who: TestUser): Promise<void> {
      await identify(tab, who);
      await heading(tab, "Enter your password");
      await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
      await tab.keyboard.press("Enter");
    }

    /**
     * Enrols an authenticator app for the user over the API (a password login, auth/totp/enrol and
     * auth/totp/confirm with the code of the step `stepsLater` from now); its secret.
     */
    async function enrolApp(site: Site, who: TestUser, stepsLater = 0): Promise<string> {
      const post = (operation: string, body: Record<string, unknown>, token?: string) =>
        call(site.company.code, operation, {
          apiKey: site.company.apiKey,
          gatewayUrl: suite.suite.gatewayUrl,
          body,
          token,
        });
      const signedIn = await post("checkcredentials", {
        login_id: who.loginName,
        password: "first-Password-1",
      });
      const token = String(signedIn.body.session_token);
      const enrolled = await post("totp/enrol", {}, token);
      expectSuccess(enrolled, ["otpauth_uri", "secret"]);
      const secret = String(enrolled.body.secret);
      expectSuccess(await post("totp/confirm", { code: await totpCode(secret, stepsLater) }, token), [
        "sessions_ended",
        "backup_codes",
      ]);
      return secret;
    }

    /**
     * Until 10 seconds of the app's 30-second step are left at least, so that a code of the step
     * before, made now, is still one the service accepts (±1 step) when it gets there.
     */
    const earlyInTotpStep = () =>
      expect
        .poll(() => (Date.now() / 1000) % 30, { timeout: testBudgets.testMs, interval: 250 })
        .toBeLessThan(20);

    /** The secret of the app whose QR code the setup shows. */
    async function shownSecret(tab: Page): Promise<string> {
      await tab.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
      const uri = new URL((await tab.locator(".otpauth-uri").getAttribute("href")) ?? "");
      return uri.searchParams.get("secret") ?? "";
    }

    describe("password login: login, then checkpassword", () => {
      it("tells an unknown login ID and a wrong password, asks for the captcha after the threshold, by keyboard alone", async () => {
        const alice = await user(plain);
        const tab = await open(plain);
        await screenshots.take(tab, "password", "start");

        // The focus is in each step's first field: the keyboard alone goes through.
        await tab.keyboard.type(`nobody-${alice.loginName}`);
        await tab.keyboard.press("Enter");
        await alert(tab, "We do not know this login ID.");
        await screenshots.take(tab, "password", "unknown-login-id");
        await tab.keyboard.press("Control+A");
        await tab.keyboard.type(alice.loginName);
        await tab.keyboard.press("Enter");

        await heading(tab, "Enter your password");
        expect(await isFocused(tab.getByLabel("Password", { exact: true }))).toBe(true);
        await tab.keyboard.type("wrong-password-1");
        await tab.keyboard.press("Enter");
        await alert(tab, "The password is not right.");
        await screenshots.take(tab, "password", "wrong-password");
        expect(await tab.getByRole("checkbox", { name: "I am not a robot" }).isVisible()).toBe(false);

        // The second failure reaches the company's threshold: the captcha is asked from now on.
        await tab.keyboard.type("wrong-password-2");
        await tab.keyboard.press("Enter");
        await tab.getByRole("checkbox", { name: "I am not a robot" }).waitFor();
        await screenshots.take(tab, "password", "captcha-asked");
        await tab.keyboard.type("first-Password-1");
        await tab.keyboard.press("Enter");
        await alert(tab, "Please confirm that you are not a robot.");
        // Past "Show password", to the captcha.
        await tab.keyboard.press("Tab");
        expect(await isFocused(tab.getByRole("button", { name: "Show password" }))).toBe(true);
        await tab.keyboard.press("Tab");
        await tab.keyboard.press("Space");
        await screenshots.take(tab, "password", "captcha-ticked");
        await tab.keyboard.press("Tab");
        expect(await isFocused(tab.getByRole("button", { name: "Sign in", exact: true }))).toBe(true);
        await tab.keyboard.press("Enter");
        await signedIn(tab, alice);
        await screenshots.take(tab, "password", "signed-in");
      });
    });

    describe("disclaimers at the password step: checkpassword with accept_disclaimers", () => {
      it("shows each disclaimer with a link to its text, and goes on only once it is accepted", async () => {
        const bea = await user(withTerms);
        const tab = await open(withTerms);
        await identify(tab, bea);
        await heading(tab, "Enter your password");
        const link = tab.getByRole("link", { name: "Read the Title terms" });
        expect(await link.getAttribute("href")).toBe("https://example.com/terms");
        expect(await link.getAttribute("target")).toBe("_blank");
        expect(await descriptionOf(tab.getByLabel("I accept the Title terms", { exact: true }))).toContain(
          "About terms",
        );
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.getByRole("button", { name: "Sign in", exact: true }).click();
        await alert(tab, "Please accept the terms to continue.");
        await screenshots.take(tab, "disclaimers", "not-accepted");
        await tab.getByLabel("I accept the Title terms", { exact: true }).check();
        await tab.getByRole("button", { name: "Sign in", exact: true }).click();
        await signedIn(tab, bea);
        await screenshots.take(tab, "disclaimers", "signed-in");
      });
    });

    describe("SMS code login: checkotp and renewotp", () => {
      it("waits the Retry-After before a new code, tells a wrong code, and signs in with the new one", async () => {
        const carl = await user(plain, { password: null });
        const tab = await open(plain);
        await identify(tab, carl);
        await heading(tab, "Enter the code from the SMS");
        await tab.getByText(/We sent a 6-digit code to \+1\*+\d\d\./).waitFor();
        // The risks of an SMS code, and the safer factor (NIST SP 800-63B-4 3.2.9, ASVS 5.0 6.6.1).
        await tab.getByText(/A code by SMS can be taken .* An authenticator app is safer/).waitFor();
        await screenshots.take(tab, "sms-code", "code-sent");

        // Right after the first SMS, within the cooldown.
        const resend = tab.getByRole("button", { name: "Send a new code" });
        await resend.click();
        await alert(tab, "A new code cannot be sent yet. Try again in");
        expect(await resend.isDisabled()).toBe(true);
        expect(await isFocused(tab.getByLabel("Code from the SMS", { exact: true }))).toBe(true);
        await screenshots.take(tab, "sms-code", "resend-too-soon");

        await tab.keyboard.type("000000");
        await tab.keyboard.press("Enter");
        await alert(tab, "The code is not right. A code can be tried only once: ask for a new code.");
        await screenshots.take(tab, "sms-code", "wrong-code");

        await expect.poll(() => resend.isEnabled(), { timeout: testBudgets.testMs }).toBe(true);
        await resend.click();
        await tab.getByRole("status").filter({ hasText: "We sent a new code to" }).waitFor();
        await screenshots.take(tab, "sms-code", "new-code-sent");
        expect(smsTo(plain.company.id, carl.phone, suite.suite.smsOutboxFile)).toHaveLength(2);

        await tab
          .getByLabel("Code from the SMS", { exact: true })
          .fill(lastOtp(plain.company.id, carl.phone, suite.suite.smsOutboxFile));
        await tab.getByRole("button", { name: "Continue" }).click();
        await signedIn(tab, carl);
        await screenshots.take(tab, "sms-code", "signed-in");
      });
    });

    describe("backup code instead of the SMS: checkotp with backup_code", () => {
      it("switches to a backup code, tells a wrong one, and signs in with one of the user's", async () => {
        const dora = await user(plain, { secondFactorRequired: true });
        const [backupCode] = await generateBackupCodes(plain.company, dora);
        const tab = await open(plain);
        await identify(tab, dora);
        await heading(tab, "Enter your password");
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.keyboard.press("Enter");
        await heading(tab, "Enter the code from the SMS");
        await tab.getByRole("button", { name: "Use a backup code instead" }).click();
        await heading(tab, "Enter a backup code");
        expect(await isFocused(tab.getByLabel("Backup code", { exact: true }))).toBe(true);
        await tab.keyboard.type("AAAA-BBBB-CCCC");
        await tab.keyboard.press("Enter");
        await alert(tab, "The backup code is not right, or it was used before.");
        await screenshots.take(tab, "backup-code", "wrong-code");
        await tab.keyboard.type(backupCode ?? "");
        await tab.keyboard.press("Enter");
        await signedIn(tab, dora);
        await screenshots.take(tab, "backup-code", "signed-in");
      });
    });

    describe("forced new password: setpassword", () => {
      it("shows the company's password rules, refuses a password that breaks them, and signs in with a new one", async () => {
        const emil = await user(plain, { passwordChangeRequired: true });
        const tab = await open(plain);
        await identify(tab, emil);
        await heading(tab, "Enter your password");
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.keyboard.press("Enter");
        await heading(tab, "Choose a new password");
        const newPassword = tab.getByLabel("New password", { exact: true });
        // Every rule of the user's new password, the company's regex among them (docs/security.md, "Passwords").
        expect(await descriptionOf(newPassword)).toBe(`${newPasswordRules} ${passwordRules}`);
        expect(await isFocused(newPassword)).toBe(true);
        await screenshots.take(tab, "new-password", "rules");
        await tab.keyboard.type("too-short");
        await tab.keyboard.press("Enter");
        // The refusal names the rule broken.
        await alert(tab, "This password cannot be used. At least 15 and at most 256 characters.");
        await screenshots.take(tab, "new-password", "refused");
        await newPassword.fill("second-Password-2");
        await tab.getByRole("button", { name: "Save the new password" }).click();
        await signedIn(tab, emil);
        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");
        await tab.getByRole("status").filter({ hasText: "You are signed out." }).waitFor();
        await screenshots.take(tab, "new-password", "signed-out");
      });
    });

    describe("the user's sessions when signed in: auth/sessions and auth/sessions/end", () => {
      /** Signs in over the API from another client: its token. */
      async function signInElsewhere(who: TestUser, userAgent: string): Promise<string> {
        const options = {
          apiKey: plain.company.apiKey,
          gatewayUrl: suite.suite.gatewayUrl,
          headers: { "user-agent": userAgent },
        };
        const login = await call(plain.company.code, "login", {
          ...options,
          body: { login_id: who.loginName },
        });
        const authorized = await call(plain.company.code, "checkpassword", {
          ...options,
          token: String(login.body.session_token),
          body: { password: "first-Password-1" },
        });
        return String(authorized.body.session_token);
      }
      const stillValid = async (token: string) =>
        call(plain.company.code, "sessions", {
          apiKey: plain.company.apiKey,
          gatewayUrl: suite.suite.gatewayUrl,
          token,
        });

      it("lists the user's sessions with their devices, ends one, then all others but this one", async () => {
        const gus = await user(plain);
        const phone = await signInElsewhere(gus, iPhoneSafari);
        const tablet = await signInElsewhere(gus, windowsFirefox);
        const tab = await open(plain);
        await identify(tab, gus);
        await heading(tab, "Enter your password");
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.keyboard.press("Enter");
        await signedIn(tab, gus);
        const sessions = tab.getByRole("region", { name: "Your sessions" }).getByRole("listitem");
        // Each by its device, named from its user agent; this one is the test's Chromium on Linux.
        await sessions.filter({ hasText: "Firefox on Windows" }).waitFor();
        expect(await sessions.count()).toBe(3);
        await sessions.filter({ hasText: "This session." }).filter({ hasText: "Chrome on Linux" }).waitFor();
        await screenshots.take(tab, "sessions", "list");

        await tab.getByRole("button", { name: "End the session of Safari on iOS" }).click();
        await sessions.filter({ hasText: "Safari on iOS" }).waitFor({ state: "detached" });
        await tab.getByRole("status").filter({ hasText: "The session has ended." }).waitFor();
        expectError(await stillValid(phone), 401, "auth.token.invalid");

        await tab.getByRole("button", { name: "End all other sessions" }).click();
        await sessions.filter({ hasText: "Firefox on Windows" }).waitFor({ state: "detached" });
        expect(await sessions.count()).toBe(1);
        expect(await tab.getByRole("button", { name: "End all other sessions" }).isHidden()).toBe(true);
        expectError(await stillValid(tablet), 401, "auth.token.invalid");
        await screenshots.take(tab, "sessions", "others-ended");
        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");
      });
    });

    describe("the user's recent security activity when signed in: auth/events", () => {
      it("lists a failed sign-in from elsewhere, marked, and the sign-ins, once the audit service has read them", async () => {
        const ida = await user(plain);
        const options = { apiKey: plain.company.apiKey, gatewayUrl: suite.suite.gatewayUrl };
        const login = await call(plain.company.code, "login", {
          ...options,
          body: { login_id: ida.loginName },
        });
        const wrong = await call(plain.company.code, "checkpassword", {
          ...options,
          token: String(login.body.session_token),
          body: { password: "not-the-Password-9" },
        });
        expect([wrong.status, wrong.body.error_code]).toEqual([401, "auth.password.invalid"]);
        const elsewhere = await call(plain.company.code, "checkpassword", {
          ...options,
          token: String(login.body.session_token),
          body: { password: "first-Password-1" },
        });
        const token = String(elsewhere.body.session_token);
        // The audit service reads the events from the stream: the page shows what it has read.
        const listed = async () =>
          ((await call(plain.company.code, "events", { ...options, token, body: {} })).body.events ??
            []) as Array<{
            type: string;
          }>;
        const readWithinMs = 60_000;
        for (const started = Date.now(); ; ) {
          const types = (await listed()).map(({ type }) => type);
          if (types.includes("auth.login.failed") && types.includes("auth.login.succeeded")) break;
          expect(Date.now() - started, `auth/events listed ${JSON.stringify(types)}`).toBeLessThan(
            readWithinMs,
          );
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const tab = await open(plain);
        await identify(tab, ida);
        await heading(tab, "Enter your password");
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.keyboard.press("Enter");
        await signedIn(tab, ida);
        const activity = tab.getByRole("region", { name: "Recent security activity" }).getByRole("listitem");
        await activity.filter({ hasText: "Sign-in failed" }).filter({ hasText: "Failed." }).waitFor();
        await activity.filter({ hasText: "Signed in" }).first().waitFor();
        await screenshots.take(tab, "security-activity", "list");
        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");
      });
    });

    describe("an authenticator app: auth/totp/enrol and auth/totp/confirm, then checkotp with its code", () => {
      it("sets up the app from the signed-in view with a QR code, then asks for its code at the next sign-in, sending no SMS", async () => {
        const hana = await user(plain);
        const tab = await open(plain);
        await identify(tab, hana);
        await heading(tab, "Enter your password");
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.keyboard.press("Enter");
        await signedIn(tab, hana);
        await tab.getByRole("button", { name: "Set up authenticator app" }).click();
        await tab.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
        const uri = new URL(
          (await tab.getByRole("link", { name: "Open in an authenticator app" }).getAttribute("href")) ?? "",
        );
        const secret = uri.searchParams.get("secret") ?? "";
        expect(uri.protocol).toBe("otpauth:");
        // The key by hand: in groups of four, copied as one value.
        const key = tab.locator("code.secret");
        expect(await key.locator("span").allTextContents()).toEqual(secret.match(/.{1,4}/g));
        expect(await key.textContent()).toBe(secret);
        await screenshots.take(tab, "authenticator", "qr-code");
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(secret));
        await tab.getByRole("button", { name: "Confirm" }).click();
        await tab.getByText("Your authenticator app is set up").waitFor();
        // The user had no backup codes: the first set came with the app, shown at once, this once
        // (docs/decisions.md, "Passkeys").
        await tab.getByText(/Your first backup codes are below/).waitFor();
        const codes = tab.getByRole("region", { name: "Backup codes" }).getByRole("listitem");
        expect(await codes.count()).toBe(10);
        expect(
          await isFocused(tab.getByText(/^Save these codes somewhere safe now: .+ Each works once\.$/)),
        ).toBe(true);
        await screenshots.take(tab, "authenticator", "set-up-with-backup-codes");
        expect(await accessibilityViolations(tab)).toEqual([]);
        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");

        await identify(tab, hana);
        await heading(tab, "Enter your password");
        await tab.getByLabel("Password", { exact: true }).fill("first-Password-1");
        await tab.keyboard.press("Enter");
        await heading(tab, "Enter the code from your authenticator app");
        expect(await tab.getByRole("button", { name: "Send a new code" }).count()).toBe(0);
        expect(smsTo(plain.company.id, hana.phone, suite.suite.smsOutboxFile)).toEqual([]);
        await screenshots.take(tab, "authenticator", "code");
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(secret, 1));
        await tab.keyboard.press("Enter");
        await signedIn(tab, hana);
      });
    });

    describe("OAuth: auth/oauth, then acceptdisclaimers", () => {
      it("goes to the provider and back, then asks for the disclaimers before signing in", async () => {
        const finn = await user(withTerms);
        await linkOAuthIdentity(withTerms.company, finn, oauthSlot, oauthAccount);
        const tab = await open(withTerms);
        await screenshots.take(tab, "oauth", "start");
        await tab.getByRole("button", { name: "Sign in with Test Provider", exact: true }).click();
        await heading(tab, "Accept the terms");
        // The code and state of the redirect back are gone from the address.
        expect(tab.url()).toBe(`${withTerms.url}/`);
        await screenshots.take(tab, "oauth", "accept-terms");
        await tab.getByRole("button", { name: "Continue" }).click();
        await alert(tab, "Please accept the terms to continue.");
        await tab.getByLabel("I accept the Title terms", { exact: true }).check();
        await tab.getByRole("button", { name: "Continue" }).click();
        await signedIn(tab, finn);
        await screenshots.take(tab, "oauth", "signed-in");
      });
    });

    describe("replacing an authenticator app: auth/totp/confirm with current_code", () => {
      it("asks a user signed in with the app's code for a code of that app beside the new one, and the new app signs in from then on", async () => {
        const kai = await user(plain);
        // The app's steps, each used once: the enrolment's (the step before now), the sign-in's
        // (now), then the replacement's (the next).
        await earlyInTotpStep();
        const old = await enrolApp(plain, kai, -1);
        const tab = await open(plain);
        await withPassword(tab, kai);
        await heading(tab, "Enter the code from your authenticator app");
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(old));
        await tab.keyboard.press("Enter");
        await signedIn(tab, kai);

        await tab.getByRole("button", { name: "Set up authenticator app" }).click();
        const next = await shownSecret(tab);
        const newCode = tab.getByLabel("Code from the new app", { exact: true });
        const currentCode = tab.getByLabel("Code from the app you have now", { exact: true });
        await currentCode.waitFor();
        expect(await isFocused(newCode)).toBe(true);
        expect(await descriptionOf(currentCode)).toBe(
          "A code of the authenticator app you sign in with now: it is replaced by the new one.",
        );
        await screenshots.take(tab, "replace-authenticator", "two-codes");

        const oldCodes = await Promise.all([-1, 0, 1].map((steps) => totpCode(old, steps)));
        await newCode.fill(await totpCode(next));
        await currentCode.fill(
          ["000000", "111111", "222222", "333333"].find((c) => !oldCodes.includes(c)) ?? "",
        );
        await tab.getByRole("button", { name: "Confirm" }).click();
        await alert(tab, "A code is not right. Enter the codes both apps show now.");
        expect(await isFocused(newCode)).toBe(true);
        await screenshots.take(tab, "replace-authenticator", "wrong-current-code");

        await newCode.fill(await totpCode(next));
        await currentCode.fill(await totpCode(old, 1));
        await tab.getByRole("button", { name: "Confirm" }).click();
        await tab.getByText("Your authenticator app is set up").waitFor();
        await tab.getByRole("button", { name: "Sign out" }).click();
        await heading(tab, "Sign in");

        await withPassword(tab, kai);
        await heading(tab, "Enter the code from your authenticator app");
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(next, 1));
        await tab.keyboard.press("Enter");
        await signedIn(tab, kai);
      });

      it("asks for a code of the app the user has once confirm answers that one is needed, after a sign-in with a backup code", async () => {
        const lena = await user(plain);
        const old = await enrolApp(plain, lena);
        const [backupCode] = await generateBackupCodes(plain.company, lena);
        const tab = await open(plain);
        await withPassword(tab, lena);
        await heading(tab, "Enter the code from your authenticator app");
        await tab.getByRole("button", { name: "Use a backup code instead" }).click();
        await heading(tab, "Enter a backup code");
        await tab.keyboard.type(backupCode ?? "");
        await tab.keyboard.press("Enter");
        await signedIn(tab, lena);

        // Signed in without the app's code, the page does not know of the app: one field.
        await tab.getByRole("button", { name: "Set up authenticator app" }).click();
        const next = await shownSecret(tab);
        const currentCode = tab.getByLabel("Code from the app you have now", { exact: true });
        expect(await currentCode.isVisible()).toBe(false);
        await tab.getByLabel("Code from the app", { exact: true }).fill(await totpCode(next));
        await tab.getByRole("button", { name: "Confirm" }).click();
        await alert(
          tab,
          "Your account has an authenticator app already. To replace it, enter a code from the app you have now too.",
        );
        expect(await isFocused(currentCode)).toBe(true);
        // The new app's code was not checked: it stays, under its new label.
        expect(await tab.getByLabel("Code from the new app", { exact: true }).inputValue()).toBe(
          await totpCode(next),
        );
        await screenshots.take(tab, "replace-authenticator", "current-code-asked");

        await tab.getByLabel("Code from the new app", { exact: true }).fill(await totpCode(next));
        await currentCode.fill(await totpCode(old, 1));
        await tab.getByRole("button", { name: "Confirm" }).click();
        await tab.getByText("Your authenticator app is set up").waitFor();
        await screenshots.take(tab, "replace-authenticator", "replaced");
      });
    });

    describe("OAuth to a second factor: auth/oauth, then checkotp with the disclaimers", () => {
      it("sends the slot's max_age to the provider, then asks for the SMS code and the disclaimers as after a password, keeps the code while the terms are not accepted, and signs in", async () => {
        const jo = await user(withTerms, { secondFactorRequired: true });
        await linkOAuthIdentity(withTerms.company, jo, maxAgeSlot, secondFactorAccount);
        const tab = await open(withTerms);
        await tab.getByRole("button", { name: "Sign in with Test Provider, recent login" }).click();
        await heading(tab, "Enter the code from the SMS");
        expect(tab.url()).toBe(`${withTerms.url}/`);
        const request = oidc.authorizationRequests.find(
          (parameters) => parameters.get("login_hint") === secondFactorAccount,
        );
        expect(request?.get("max_age")).toBe(String(maxAgeSeconds));
        await tab.getByText(/We sent a 6-digit code to \+1\*+\d\d\./).waitFor();
        const accept = tab.getByLabel("I accept the Title terms", { exact: true });
        expect(await accept.isChecked()).toBe(false);
        await screenshots.take(tab, "oauth-second-factor", "code-and-terms");

        const code = tab.getByLabel("Code from the SMS", { exact: true });
        const sent = lastOtp(withTerms.company.id, jo.phone, suite.suite.smsOutboxFile);
        await code.fill(sent);
        await tab.getByRole("button", { name: "Continue" }).click();
        await alert(tab, "Please accept the terms to continue.");
        // The terms are checked before the code: the code was not tried, and stays in its field.
        expect(await code.inputValue()).toBe(sent);
        await accept.check();
        await tab.getByRole("button", { name: "Continue" }).click();
        await signedIn(tab, jo);
        await screenshots.take(tab, "oauth-second-factor", "signed-in");
      });
    });

    describe("what the user typed, after an error that checked nothing (a 503, a rate limit, no answer)", () => {
      /** Answers the page's next call of the operation as the gateway would not: down, busy, or not at all. */
      async function failNext(tab: Page, operation: string, how: "503" | "429" | "no answer") {
        await tab.route(`**/v2/auth/${operation}`, (route) =>
          how === "no answer"
            ? route.abort("connectionrefused")
            : route.fulfill({
                status: Number(how),
                contentType: "application/json",
                headers: how === "429" ? { "retry-after": "3" } : {},
                body: JSON.stringify({
                  status: "error",
                  error_code: how === "429" ? "request.ratelimit.exceeded" : "service.unavailable",
                }),
              }),
        );
      }
      const unavailable = "The sign-in service is not available right now.";

      it("keeps the SMS code through each, and signs in with it once the gateway answers", async () => {
        const max = await user(plain, { password: null });
        const tab = await open(plain);
        await identify(tab, max);
        await heading(tab, "Enter the code from the SMS");
        const code = tab.getByLabel("Code from the SMS", { exact: true });
        const sent = lastOtp(plain.company.id, max.phone, suite.suite.smsOutboxFile);
        await code.fill(sent);
        for (const [how, message] of [
          ["no answer", unavailable],
          ["429", "Too many requests. Try again in 3 seconds."],
          ["503", unavailable],
        ] as const) {
          await failNext(tab, "checkotp", how);
          await tab.getByRole("button", { name: "Continue" }).click();
          await alert(tab, message);
          expect(await code.inputValue(), how).toBe(sent);
          await tab.unrouteAll();
        }
        await screenshots.take(tab, "kept-input", "sms-code-after-503");
        await tab.getByRole("button", { name: "Continue" }).click();
        await signedIn(tab, max);
      });

      it("keeps the control answer through a 503, and goes on with it", async () => {
        const nina = await user(plain, {
          controlQuestion: "Which city were you born in?",
          controlAnswer: "Springfield",
        });
        const tab = await open(plain);
        await startRecovery(tab, nina, "My control question", "kept-input");
        await heading(tab, "Answer your control question");
        const answer = tab.getByLabel("Which city were you born in?", { exact: true });
        await answer.fill("Springfield");
        await failNext(tab, "recovery/checkquestion", "503");
        // Enter in the field itself: a key pressed on the tab goes wherever the focus happens to be.
        await answer.press("Enter");
        await alert(tab, unavailable);
        expect(await answer.inputValue()).toBe("Springfield");
        await tab.unrouteAll();
        await answer.press("Enter");
        await heading(tab, "Choose a new password");
      });

      it("keeps the authenticator app's code through a 503, and sets the app up with it", async () => {
        const olga = await user(plain);
        const tab = await open(plain);
        await withPassword(tab, olga);
        await signedIn(tab, olga);
        await tab.getByRole("button", { name: "Set up authenticator app" }).click();
        const secret = await shownSecret(tab);
        const code = tab.getByLabel("Code from the app", { exact: true });
        const shown = await totpCode(secret);
        await code.fill(shown);
        await failNext(tab, "totp/confirm", "503");
        await tab.getByRole("button", { name: "Confirm" }).click();
        await alert(tab, unavailable);
        expect(await code.inputValue()).toBe(shown);
        await tab.unrouteAll();
        await tab.getByRole("button", { name: "Confirm" }).click();
        await tab.getByText("Your authenticator app is set up").waitFor();
      });
    });

    describe("recovery by control question: recover, checkquestion, setpassword", () => {
      it("asks the question as the answer's label, tells a wrong answer, and sets a password that signs in", async () => {
        const gina = await user(plain, {
          controlQuestion: "Which city were you born in?",
          controlAnswer: "Springfield",
        });
        const tab = await open(plain);
        await startRecovery(tab, gina, "My control question", "recovery-question");
        await heading(tab, "Answer your control question");
        const answer = tab.getByLabel("Which city were you born in?", { exact: true });
        await answer.fill("Shelbyville");
        await tab.keyboard.press("Enter");
        await alert(tab, "The answer is not right. After three wrong answers you have to start again.");
        await screenshots.take(tab, "recovery-question", "wrong-answer");
        await answer.fill("springfield");
        await tab.keyboard.press("Enter");
        await setPasswordAndSignIn(tab, gina, "recovery-question");
      });
    });

    describe("recovery by phone: recover, recovery/checkotp, setpassword", () => {
      it("sends a code by SMS, without backup codes, and sets a password that signs in", async () => {
        const hugo = await user(plain);
        const tab = await open(plain);
        await startRecovery(tab, hugo, "A code by SMS", "recovery-phone");
        await heading(tab, "Enter the code from the SMS");
        expect(await tab.getByRole("button", { name: "Use a backup code instead" }).count()).toBe(0);
        await screenshots.take(tab, "recovery-phone", "code-sent");
        await tab
          .getByLabel("Code from the SMS", { exact: true })
          .fill(lastOtp(plain.company.id, hugo.phone, suite.suite.smsOutboxFile));
        await tab.keyboard.press("Enter");
        await setPasswordAndSignIn(tab, hugo, "recovery-phone");
      });
    });

    describe("recovery by e-mail link: recover, the page's /recover, recovery/checklink, setpassword", () => {
      it("sends a link to the page, which sets a password that signs in; the link works once", async () => {
        const ida = await user(plain);
        const tab = await open(plain);
        await startRecovery(tab, ida, "A link by e-mail", "recovery-mail");
        await heading(tab, "Check your e-mail");
        await tab.getByText(/We sent a link to u\*+@example\.com\./).waitFor();
        await screenshots.take(tab, "recovery-mail", "mail-sent");

        const [mail] = mailTo(plain.company.id, ida.email, suite.suite.mailOutboxFile);
        const link = recoveryLink(mail?.text ?? "");
        expect(link.startsWith(`${plain.url}${pageRoutes.recoveryLink}?token=`)).toBe(true);
        await tab.goto(link);
        await heading(tab, "Choose a new password");
        // The link's token is gone from the address (and so from the history).
        expect(tab.url()).toBe(`${plain.url}/`);
        await setPasswordAndSignIn(tab, ida, "recovery-mail");

        await tab.goto(link);
        await heading(tab, "This link cannot be used");
        await alert(tab, "This link is not valid, or it was used before. You can ask for a new link.");
        await screenshots.take(tab, "recovery-mail", "link-used");
      });
    });
  },
);
