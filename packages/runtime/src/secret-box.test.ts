import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SecretBox } from "./secret-box.js";

describe("sealed secrets", () => {
  const box = new SecretBox(randomBytes(32));

  it("are sealed so that the stored text does not hold them, and open again", () => {
    const sealed = box.seal("client-secret-123");
    expect(sealed).not.toContain("client-secret-123");
    expect(box.open(sealed)).toBe("client-secret-123");
  });

  it("seal differently each time", () => {
    expect(box.seal("s")).not.toBe(box.seal("s"));
  });

  it("do not open under another key or when tampered with", () => {
    const sealed = box.seal("secret");
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("x").toString("base64url");
    expect(() => box.open(parts.join("."))).toThrow();
  });

  it("are sealed again only when they change (sealAgain keeps the stored sealing of the same secret)", () => {
    const stored = box.seal("secret");
    expect(box.sealAgain("secret", stored)).toBe(stored);
    expect(box.open(box.sealAgain("another", stored))).toBe("another");
    expect(box.open(box.sealAgain("secret", "not sealed"))).toBe("secret");
    expect(box.open(box.sealAgain("secret", undefined))).toBe("secret");
  });
});
