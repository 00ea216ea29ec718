import { describe, expect, it } from "vitest";
import { freePorts, whyNotListenable } from "./ports.js";

describe("freePorts", () => {
  it("gives as many ports as asked, no two the same, each listenable", async () => {
    const ports = await freePorts(40);
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) expect(await whyNotListenable(port), String(port)).toBeUndefined();
  });
});
