import { describe, expect, it } from "vitest";
import { CompanyCache } from "./company-cache.js";

describe("the company cache of API keys", () => {
  it("tells keys of different companies apart and never holds the key", () => {
    expect(CompanyCache.key("acme", "key")).not.toBe(CompanyCache.key("other", "key"));
    expect(CompanyCache.key("acme", "secret-key")).not.toContain("secret-key");
  });
});
