import { describe, expect, it } from "vitest";
import { maskPhone } from "./mask-phone.js";

describe("masked phone", () => {
  it("keeps the country calling code and the last two digits", async () => {
    expect(await maskPhone("+15551234567")).toBe("+1********67");
    expect(await maskPhone("+442079460958")).toBe("+44********58");
    expect(await maskPhone("+380501234567")).toBe("+380*******67");
  });
});
