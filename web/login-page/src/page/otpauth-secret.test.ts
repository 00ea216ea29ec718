import { describe, expect, it } from "vitest";
import { secretGroups } from "./otpauth-secret.js";

describe("an authenticator app's secret, shown for typing by hand", () => {
  it("is split into groups of four characters, the last one shorter when the secret is", () => {
    expect(secretGroups("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")).toEqual([
      "JBSW",
      "Y3DP",
      "EHPK",
      "3PXP",
      "JBSW",
      "Y3DP",
      "EHPK",
      "3PXP",
    ]);
    expect(secretGroups("JBSWY3")).toEqual(["JBSW", "Y3"]);
  });

  it("loses no character: the groups joined are the secret", () => {
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(secretGroups(secret).join("")).toBe(secret);
  });
});
