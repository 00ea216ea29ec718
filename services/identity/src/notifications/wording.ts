import { deviceName, type Translator } from "@auth/i18n";
import { eventNames, type KnownEvent } from "./templates.js";

export interface Wording {
  subject: string;
  body: string;
  smsText: string;
}

/**
 * A notice's wording: the `notices` catalogue's messages of the event, or the company's own, in the
 * language of `words` (docs/decisions.md, "Languages"), with the company's name, the time, which
 * the catalogue shows as a date in the translator's zone (UTC), and the device named from the user
 * agent as the session list names it (NEW_DEVICE's; never the user agent itself).
 */
export function wordingOf(
  event: KnownEvent,
  words: Translator,
  { userAgent = "", ...facts }: { company: string; time: Date; userAgent?: string },
): Wording {
  const name = eventNames[event];
  const values = { ...facts, device: deviceName(userAgent, words) };
  return {
    subject: words.format("notices", `${name}.subject`, values),
    body: words.format("notices", `${name}.body`, values),
    smsText: words.format("notices", `${name}.sms`, values),
  };
}
