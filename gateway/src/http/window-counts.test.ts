import { describe, expect, it } from "vitest";
import { WindowCounts, windowMs } from "./window-counts.js";

describe("WindowCounts: a gateway's own count per key and window", () => {
  it("counts a key in the window its first request began, and afresh once that window has ended", () => {
    const counts = new WindowCounts();
    const start = 1_000_000;
    expect(counts.add("k", start)).toMatchObject({ own: 1, end: start + windowMs });
    expect(counts.add("k", start + windowMs - 1)).toMatchObject({ own: 2, end: start + windowMs });
    expect(counts.add("k", start + windowMs)).toMatchObject({ own: 1, end: start + 2 * windowMs });
  });

  it("keeps the window's end Redis gave it", () => {
    const counts = new WindowCounts();
    const count = counts.add("k", 0);
    count.end = 10;
    expect(counts.add("k", 9)).toMatchObject({ own: 2, end: 10 });
    expect(counts.add("k", 10)).toMatchObject({ own: 1, end: 10 + windowMs });
  });

  it("lists the windows that have not ended, to give back to Redis", () => {
    const counts = new WindowCounts();
    counts.add("old", 0);
    counts.add("new", windowMs / 2);
    expect(counts.live(windowMs).map(([key]) => key)).toEqual(["new"]);
  });
});
