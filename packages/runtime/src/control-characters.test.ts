import { describe, expect, it } from "vitest";
import { hasControlCharacter, pathOfString } from "./control-characters.js";

const fieldWithControlCharacter = (value: unknown) => pathOfString(value, hasControlCharacter);

describe("control characters", () => {
  it.each([
    ["NUL", 0x00],
    ["U+0001", 0x01],
    ["TAB", 0x09],
    ["a line feed", 0x0a],
    ["a carriage return", 0x0d],
    ["ESC", 0x1b],
    ["U+001F", 0x1f],
    ["DEL", 0x7f],
  ])("include %s: C0 and DEL", (_, code) => {
    expect(hasControlCharacter(`a${String.fromCharCode(code)}b`)).toBe(true);
  });

  it.each(["", "alice@example.com", "+1 (202) 555-0143", "pässwörd ✓ 密码", "~ !", "\u0080\u00a0"])(
    "are not in %j: printable text, other scripts, C1 and non-breaking spaces",
    (text) => {
      expect(hasControlCharacter(text)).toBe(false);
    },
  );
});

describe("the path of the first string with a control character", () => {
  it("is named by its path, in nested objects and arrays too", () => {
    expect(fieldWithControlCharacter({ login_id: "a\u0000" })).toBe("login_id");
    expect(fieldWithControlCharacter({ a: "ok", accept_disclaimers: ["tos", "pri\u007fvacy"] })).toBe(
      "accept_disclaimers.1",
    );
    expect(fieldWithControlCharacter({ outer: { inner: "\t" } })).toBe("outer.inner");
  });

  it("is empty for the string itself", () => {
    expect(fieldWithControlCharacter("\u0000")).toBe("");
  });

  it("is none when every string is clean, whatever else the body holds", () => {
    expect(fieldWithControlCharacter({ login_id: "ann", provider_id: 1, flag: true, none: null })).toBe(
      undefined,
    );
    expect(fieldWithControlCharacter({})).toBe(undefined);
  });
});
