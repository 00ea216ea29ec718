import { describe, expect, it } from "vitest";
import { acceptedLanguages } from "./accepted-languages.js";

describe("the languages of an Accept-Language header", () => {
  it("come by q-value, then in the order written", () => {
    expect(acceptedLanguages("de;q=0.8, fr-CH, fr;q=0.9, en;q=0.8")).toEqual(["fr-CH", "fr", "de", "en"]);
  });

  it("leave out those refused with q=0, and the wildcard", () => {
    expect(acceptedLanguages("de;q=0, fr, *;q=0.1")).toEqual(["fr"]);
  });

  it("are none without a header", () => {
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages("")).toEqual([]);
  });
});
