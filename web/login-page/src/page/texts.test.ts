import { describe, expect, it } from "vitest";
import { plural, texts } from "./texts.js";

describe("the page's counts, in the plural forms of its language (Intl.PluralRules)", () => {
  it("says one session, and two, and none, each right", () => {
    expect(texts.sessions.othersEnded(1)).toBe("1 other session has ended.");
    expect(texts.sessions.othersEnded(2)).toBe("2 other sessions have ended.");
    expect(texts.sessions.ended(1)).toBe("The session has ended.");
    expect(texts.sessions.ended(3)).toBe("3 sessions have ended.");
  });

  it("says seconds and minutes of a wait each right", () => {
    expect(texts.page.waitSeconds(1)).toBe("Try again in 1 second.");
    expect(texts.page.waitSeconds(0)).toBe("Try again in 0 seconds.");
    expect(texts.page.waitMinutes(1)).toBe("Try again in 1 minute.");
    expect(texts.page.waitMinutes(15)).toBe("Try again in 15 minutes.");
  });

  it("chooses the form by the language's rule, not by the number alone", () => {
    const forms = { one: "one", other: "other" };
    expect([0, 1, 2, 1.5].map((count) => plural(count, forms))).toEqual(["other", "one", "other", "other"]);
  });
});
