import Bowser from "bowser";
import type { Translator } from "./translator.js";

/**
 * The browser and the system a user agent names, each "" when it names none (curl, a user agent
 * made up, none at all). The user agent is the client's word: it names the device, it proves nothing.
 */
export function browserAndSystem(userAgent: string): { browser: string; os: string } {
  if (userAgent.trim() === "") return { browser: "", os: "" };
  const { browser, os } = Bowser.parse(userAgent);
  return { browser: browser.name ?? "", os: os.name ?? "" };
}

/**
 * A session's device as the user knows it, in the translator's language (docs/decisions.md,
 * "Reference login page"): "Chrome on Linux"; the browser or the system alone when only one is
 * known; "Unknown device" when neither is. The session list and the new-device notice both say it so.
 */
export function deviceName(userAgent: string, words: Pick<Translator, "format">): string {
  const { browser, os } = browserAndSystem(userAgent);
  if (browser && os) return words.format("page", "sessions.device", { browser, os });
  return browser || os || words.format("page", "sessions.unknownDevice");
}
