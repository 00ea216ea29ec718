import type { Translator } from "@auth/i18n";
import { eventNames, type KnownEvent } from "./templates.js";

export interface Wording {
  subject: string;
  body: string;
  smsText: string;
}

/**
 * A notice's wording: the `notices` catalogue's messages of the event, or the company's own, in the
 * language of `words` (docs/decisions.md, "Languages"), with the company's name and the time, which
 * the catalogue shows as a date in the translator's zone (UTC).
 */
export function wordingOf(
  event: KnownEvent,
  words: Translator,
  values: { company: string; time: Date },
): Wording {
  const name = eventNames[event];
  return {
    subject: words.format("notices", `${name}.subject`, values),
    body: words.format("notices", `${name}.body`, values),
    smsText: words.format("notices", `${name}.sms`, values),
  };
}
