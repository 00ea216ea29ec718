import type { Page } from "playwright-core";
import { expect } from "vitest";
import { accessibilityViolations, cardLayout, type Screenshots } from "./browser.js";

/** A screen of each kind: the card as before on a desktop, within the edges on a 360 px phone. */
export const screens = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 360, height: 740 },
] as const;

/**
 * Waits for two frames: the page laid out and painted at a new size (a full-page screenshot taken
 * at once after a resize may miss what lies below the window).
 */
const framesPainted = (tab: Page) =>
  tab.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const { requestAnimationFrame } = globalThis as unknown as {
          requestAnimationFrame(callback: () => void): void;
        };
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );

/** The view as it looks at one width: a screenshot, no axe violation, the card within the screen's edges. */
async function look(tab: Page, screenshots: Screenshots, view: string, step: string): Promise<void> {
  await screenshots.take(tab, view, step);
  expect(await accessibilityViolations(tab), `${view}/${step}`).toEqual([]);
  const { left, right, sideways } = await cardLayout(tab);
  expect(sideways, `${view}/${step}: sideways scroll`).toBe(0);
  expect(Math.min(left, right), `${view}/${step}: the card's margin`).toBeGreaterThanOrEqual(8);
}

/**
 * The view at every width of `screens`, the window resized for each, looked at (`look`) with its
 * screenshot under `<flow>/<width>/`: one walk of the flows serves both widths.
 */
export async function lookAtEveryWidth(
  tab: Page,
  screenshots: Screenshots,
  flow: string,
  step: string,
): Promise<void> {
  for (const screen of screens) {
    await tab.setViewportSize({ width: screen.width, height: screen.height });
    await framesPainted(tab);
    await look(tab, screenshots, `${flow}/${screen.width}`, step);
  }
}
