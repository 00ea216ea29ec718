import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";

/**
 * Debian's Chromium: its old headless shell (`apt-get install chromium-headless-shell`; .ci/run
 * installs it), which Playwright also runs for headless tests of its own, or else the whole browser
 * (`chromium`). The shell draws the same pages with half the CPU and half the processes
 * (docs/performance.md, "Chromium's headless shell").
 */
const chromiums = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];
const chromiumPath = chromiums.find((path) => existsSync(path));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    // English unless a test's context names its locale: the pages' words follow the browser's language.
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--lang=en-US"],
  });
}

/** Whether Chromium is there; says so once when it is not, since the browser tests are then skipped. */
export function chromiumInstalled(): boolean {
  if (chromiumPath !== undefined) return true;
  process.stderr.write(
    `Skipping the browser tests: no ${chromiums.join(" or ")} (apt-get install chromium-headless-shell, as .ci/run does).\n`,
  );
  return false;
}

/**
 * Where the screenshots of the browser tests go: test-e2e/artifacts/<suite>/<flow>/NN-<step>.png,
 * beside the files they show, if the test wrote them (`save`). None with TEST_SCREENSHOTS=off, as
 * .ci/run sets: a run that keeps no artifacts would pay about 0.1 s of Chromium's CPU for each.
 */
export class Screenshots {
  readonly #dir: string;
  readonly #taken = new Map<string, number>();

  constructor(suite: string) {
    this.#dir = fileURLToPath(new URL(`../../artifacts/${suite}/`, import.meta.url));
    rmSync(this.#dir, { recursive: true, force: true });
  }

  /** Writes a file of the flow (an e-mail's HTML); returns its path. */
  save(flow: string, file: string, content: string): string {
    mkdirSync(join(this.#dir, flow), { recursive: true });
    const path = join(this.#dir, flow, file);
    writeFileSync(path, content);
    return path;
  }

  async take(page: Page, flow: string, step: string): Promise<void> {
    if (process.env.TEST_SCREENSHOTS === "off") return;
    const number = (this.#taken.get(flow) ?? 0) + 1;
    this.#taken.set(flow, number);
    mkdirSync(join(this.#dir, flow), { recursive: true });
    await page.screenshot({
      path: join(this.#dir, flow, `${String(number).padStart(2, "0")}-${step}.png`),
      fullPage: true,
    });
  }
}

/** Whether the element has the keyboard focus. */
export async function isFocused(locator: Locator): Promise<boolean> {
  return (await locator.and(locator.page().locator(":focus")).count()) === 1;
}

/** A CSS property of the element as the browser computes it (a colour as "rgb(...)"). */
export function computedStyle(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => {
    // In the page: the window's getComputedStyle.
    const { getComputedStyle } = globalThis as unknown as {
      getComputedStyle(element: unknown): { getPropertyValue(name: string): string };
    };
    return getComputedStyle(element).getPropertyValue(name);
  }, property);
}

/**
 * How far the page's card (its `main`) is from the window's left and right edges, and how far the
 * page scrolls sideways, in CSS pixels.
 */
export function cardLayout(page: Page): Promise<{ left: number; right: number; sideways: number }> {
  return page.evaluate(() => {
    // In the page: its document.
    const { document } = globalThis as unknown as {
      document: {
        querySelector(selector: string): { getBoundingClientRect(): { left: number; right: number } } | null;
        documentElement: { clientWidth: number; scrollWidth: number };
      };
    };
    const card = document.querySelector("main")?.getBoundingClientRect();
    const root = document.documentElement;
    return {
      left: card?.left ?? 0,
      right: root.clientWidth - (card?.right ?? 0),
      sideways: root.scrollWidth - root.clientWidth,
    };
  });
}

/** The text an element's aria-describedby points at (what a screen reader reads after its label). */
export async function descriptionOf(locator: Locator): Promise<string> {
  const ids = (await locator.getAttribute("aria-describedby"))?.split(" ") ?? [];
  const texts = await Promise.all(ids.map((id) => locator.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(" ");
}

/**
 * axe-core's minified build (0.65 MB) rather than `axe.source` (1.5 MB): a new page, its loading, the
 * injection and one check took 2.2 s against 2.8 s (docs/performance.md, "Where the end-to-end tests'
 * time goes").
 */
const axeScript = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * What axe-core finds against WCAG 2.2 A and AA and its best practices on the page as it is now,
 * one line per rule broken with the elements that break it; `skip` names rules that do not apply
 * (with the reason at the call). Injected through the DevTools protocol, which the page's content
 * security policy does not hold back.
 */
export async function accessibilityViolations(page: Page, skip: string[] = []): Promise<string[]> {
  // Once per document: axe-core is more than half a megabyte of script to parse.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeScript);
  return page.evaluate(async (skip) => {
    // In the page: axe-core's global, and the whole document by default.
    const { axe } = globalThis as unknown as { axe: typeof import("axe-core") };
    const { violations } = await axe.run({
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      },
      rules: Object.fromEntries(skip.map((rule) => [rule, { enabled: false }])),
    });
    return violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
  }, skip);
}

/** A virtual FIDO2 authenticator in the tab (Chromium's, through the DevTools protocol's WebAuthn domain). */
export interface VirtualAuthenticator {
  /** The passkeys it holds now. */
  credentials(): Promise<Array<{ credentialId: string; isResidentCredential: boolean; signCount: number }>>;
}

/**
 * Gives the tab a platform authenticator that keeps discoverable credentials and verifies its user
 * (a PIN, a fingerprint) by itself: the browser's passkey dialogs are answered without a person.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}
