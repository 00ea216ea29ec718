import { describe, expect, it } from "vitest";
import { normalizeControlAnswer } from "./control-answers.js";

describe("control answers", () => {
  it.each([
    ["  Rex  ", "rex"],
    ["New   York\tCity", "new york city"],
    ["ＲＥＸ", "rex"],
    ["Straße", "strasse"],
    ["STRASSE", "strasse"],
  ])("read %j as %j", (answer, normalized) => {
    expect(normalizeControlAnswer(answer)).toBe(normalized);
  });
});
