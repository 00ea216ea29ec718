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
