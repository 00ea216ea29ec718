import { pageLanguage } from "./texts.js";

const shownTimes = new Intl.DateTimeFormat(pageLanguage, { dateStyle: "medium", timeStyle: "short" });

/**
 * A time of the service's answers (RFC 3339) as the page shows it: a date and a time of day in the
 * browser's time zone, in the words of the page's language ("Nov 24, 2026, 7:02 AM").
 */
export const shownTime = (timestamp: string): string => shownTimes.format(new Date(timestamp));
