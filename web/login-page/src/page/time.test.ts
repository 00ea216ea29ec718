import { describe, expect, it } from "vitest";
import { shownTime } from "./time.js";

describe("the times the page shows (sessions, events, passkeys)", () => {
  it("are a medium date and a short time of day in the page's language (Intl.DateTimeFormat)", () => {
    const timestamp = "2026-11-24T12:02:11.000Z";
    const expected = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(
      new Date(timestamp),
    );
    expect(shownTime(timestamp)).toBe(expected);
    // Nov 24, 2026, 12:02 PM in UTC; the day and the time of day move with the browser's zone.
    expect(shownTime(timestamp)).toMatch(/^Nov 2[345], 2026, \d{1,2}:\d\d\s[AP]M$/);
  });
});
