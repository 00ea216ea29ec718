import Bowser from "bowser";
import { text } from "./words.js";

/**
 * A session's device as the user knows it, from its user agent (docs/decisions.md, "Reference login
 * page"): "Chrome on Linux"; the browser or the system alone when only one is known; "Unknown
 * device" for a client that names neither (curl, a user agent made up, none at all). The user agent
 * is the client's word: it names the device, it proves nothing.
 */
export function deviceName(userAgent: string): string {
  if (userAgent.trim() === "") return text("sessions.unknownDevice");
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return text("sessions.device", { browser: browser.name, os: os.name });
  return browser.name || os.name || text("sessions.unknownDevice");
}
