import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache.js";

describe("TtlCache", () => {
  it("keeps a value for its time to live, then forgets it", () => {
    let now = 0;
    const cache = new TtlCache<string>(5_000, 10, () => now);
    cache.set("k", "v");
    now = 4_999;
    expect(cache.get("k")).toBe("v");
    now = 5_000;
    expect(cache.get("k")).toBeUndefined();
  });

  it("keeps nothing when its time to live is 0", () => {
    const cache = new TtlCache<string>(0);
    cache.set("k", "v");
    expect(cache.get("k")).toBeUndefined();
  });

  it("drops the oldest entry when full", () => {
    const cache = new TtlCache<string>(60_000, 2);
    cache.set("a", "1");
    cache.set("b", "2");
    cache.set("c", "3");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toBe("3");
  });

  it("forgets an entry on delete", () => {
    const cache = new TtlCache<string>(60_000);
    cache.set("a", "1");
    cache.delete("a");
    expect(cache.get("a")).toBeUndefined();
  });
});
