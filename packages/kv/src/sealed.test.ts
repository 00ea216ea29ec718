import { describe, expect, it } from "vitest";
import { issueToken } from "./keyed-token.js";
import { keyFromToken, seal, unseal } from "./sealed.js";

describe("a text sealed for a token's holder", () => {
  const { token } = issueToken("A".repeat(22));
  const text = "the new token";

  it("opens with the key of the same token and purpose, and holds nothing of the text", () => {
    const sealed = seal(keyFromToken(token, "purpose"), text);
    expect(sealed).not.toContain(text);
    expect(unseal(keyFromToken(token, "purpose"), sealed)).toBe(text);
  });

  it("opens with no other token's key, nor another purpose's", () => {
    const sealed = seal(keyFromToken(token, "purpose"), text);
    expect(() => unseal(keyFromToken(issueToken("A".repeat(22)).token, "purpose"), sealed)).toThrow();
    expect(() => unseal(keyFromToken(token, "another purpose"), sealed)).toThrow();
  });
});
