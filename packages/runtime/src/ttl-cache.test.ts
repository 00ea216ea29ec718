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

  it("loads a missing value once for every caller that misses it at the same moment", async () => {
    const cache = new TtlCache<string>(60_000);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return "v";
    };
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad("k", load)));
    expect(values).toEqual(Array(20).fill("v"));
    expect(loads).toBe(1);
    expect(await cache.getOrLoad("k", load)).toBe("v");
    expect(loads).toBe(1);
  });

  it("keeps no failed load: the next caller loads again", async () => {
    const cache = new TtlCache<string>(60_000);
    await expect(cache.getOrLoad("k", () => Promise.reject(new Error("store down")))).rejects.toThrow(
      "store down",
    );
    expect(await cache.getOrLoad("k", async () => "v")).toBe("v");
  });

  it("keeps no value loaded across a delete: it may be what the delete removed", async () => {
    const cache = new TtlCache<string>(60_000);
    let release: (value: string) => void = () => {};
    const loading = cache.getOrLoad("k", () => new Promise<string>((resolve) => (release = resolve)));
    cache.delete("k");
    release("old");
    expect(await loading).toBe("old");
    expect(cache.get("k")).toBeUndefined();
  });
});
