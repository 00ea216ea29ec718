import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
export const chromiumPath = "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Whether Chromium is there; says so once when it is not, since the browser tests are then skipped. */
export function chromiumInstalled(): boolean {
  if (existsSync(chromiumPath)) return true;
  process.stderr.write(
    `Skipping the browser tests: ${chromiumPath} is missing (apt-get install chromium, as .ci/run does).\n`,
  );
  return false;
}

/** Where the screenshots of the browser tests go: test-e2e/artifacts/<suite>/<flow>/NN-<step>.png. */
export class Screenshots {
  readonly #dir: string;
  readonly #taken = new Map<string, number>();

  constructor(suite: string) {
    this.#dir = fileURLToPath(new URL(`../../artifacts/${suite}/`, import.meta.url));
    rmSync(this.#dir, { recursive: true, force: true });
  }

  async take(page: Page, flow: string, step: string): Promise<void> {
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

/** The text an element's aria-describedby points at (what a screen reader reads after its label). */
export async function descriptionOf(locator: Locator): Promise<string> {
  const ids = (await locator.getAttribute("aria-describedby"))?.split(" ") ?? [];
  const texts = await Promise.all(ids.map((id) => locator.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(" ");
}
