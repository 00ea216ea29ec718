import { hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { owaspMinimum, PasswordHasher } from "./passwords.js";

const hasher = new PasswordHasher(owaspMinimum);

describe("password hashing", () => {
  it("makes argon2id hashes that carry their parameters", async () => {
    const passwordHash = await hasher.hash("correct horse");
    expect(passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const passwordHash = await hasher.hash("correct horse");
    expect(await hasher.verify(passwordHash, "correct horse")).toBe(true);
    expect(await hasher.verify(passwordHash, "correct horse ")).toBe(false);
  });

  it("verifies the whole password as typed: one differing only in the last of 256 characters, or only in case, is refused", async () => {
    const long = `${"correct horse battery staple ".repeat(8)}${"x".repeat(24)}`;
    expect([...long]).toHaveLength(256);
    const passwordHash = await hasher.hash(long);
    expect(await hasher.verify(passwordHash, long)).toBe(true);
    expect(await hasher.verify(passwordHash, `${long.slice(0, -1)}y`)).toBe(false);
    expect(await hasher.verify(passwordHash, long.toUpperCase())).toBe(false);
  });

  it("salts every hash with 128 random bits, stored with it: two hashes of one password differ", async () => {
    const [first, second] = [await hasher.hash("correct horse"), await hasher.hash("correct horse")];
    expect(first).not.toBe(second);
    const salt = first.split("$")[4] ?? "";
    expect(Buffer.from(salt, "base64").length).toBe(16);
  });

  it("refuses rather than throws for a malformed stored hash", async () => {
    expect(await hasher.verify("not a hash", "x")).toBe(false);
  });

  it("asks for a rehash of a hash made with weaker parameters", async () => {
    const weak = await hash("pw", { memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(hasher.needsRehash(weak)).toBe(true);
    expect(hasher.needsRehash(await hasher.hash("pw"))).toBe(false);
  });

  it("spends a verification on an unknown user and fails", async () => {
    expect(await hasher.verifyNothing("anything")).toBe(false);
  });
});
