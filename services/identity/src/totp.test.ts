import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { newTotpSecret, totpStepOf, totpUri } from "./totp.js";

const now = 1_700_000_015;
const step = Math.floor(now / 30);
const secret = newTotpSecret();
const codeAt = (offsetSteps: number) => generate({ secret, epoch: now + offsetSteps * 30 });

describe("TOTP codes (RFC 6238, 30-second steps, 6 digits)", () => {
  it("accept the code of the current step and of the steps just before and after, naming its step", async () => {
    expect(await totpStepOf(secret, await codeAt(0), now)).toBe(step);
    expect(await totpStepOf(secret, await codeAt(-1), now)).toBe(step - 1);
    expect(await totpStepOf(secret, await codeAt(1), now)).toBe(step + 1);
  });

  it("refuse a code two steps away, either way", async () => {
    const [early, late] = [await codeAt(-2), await codeAt(2)];
    const current = await codeAt(0);
    // A code of two steps away can coincide with one of the window by chance (1 in 10^6): not then.
    if (early !== current) expect(await totpStepOf(secret, early, now)).toBeUndefined();
    if (late !== current) expect(await totpStepOf(secret, late, now)).toBeUndefined();
  });

  it("refuse anything that is not six digits", async () => {
    const code = await codeAt(0);
    for (const input of ["", `${code}0`, ` ${code}`, "abcdef", code.slice(1)])
      expect(await totpStepOf(secret, input, now)).toBeUndefined();
  });

  it("have secrets of 160 random bits, in base32, in an otpauth URI an app reads", () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "Acme Co", "alice@acme.example"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("Acme Co");
  });
});
