import { hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { parsePasswordHash } from "./index.js";

/** Known vectors: RFC 7914's for scrypt and PBKDF2-HMAC-SHA256, in each format's encoding. */
const vectors = {
  bcrypt2a: { hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", password: "U*U" },
  bcrypt2b: { hash: "$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", password: "U*U" },
  // PHP's manual, password_verify.
  bcrypt2y: {
    hash: "$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a",
    password: "rasmuslerdorf",
  },
  // The reference implementation's README.
  argon2i: {
    hash: "$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
    password: "password",
  },
  scryptPasslib: {
    hash: "$scrypt$ln=10,r=8,p=16$TmFDbA$/bq.HJ00cgB4VucZDQHp/nxq18vII3gw53N2Y0s3MWIurzDZLiKjiG/xCSedmDDaxyevuUqD7m2DYMvfoswGQA",
    password: "password",
  },
  scryptWerkzeug: {
    hash: "scrypt:1024:8:16$NaCl$fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
    password: "password",
  },
  // werkzeug.security.generate_password_hash("correct horse", "scrypt"), its default N, r and p.
  scryptWerkzeugDefault: {
    hash: "scrypt:32768:8:1$ZVqxd8DpyAaSW5Zt$a2d9cb4ac919c6cf1ee012663ac18ad4560a9ac07d58095259e9174ee4576e3a15e50fa84a2f2790eec892085e962b238bdc1864fa67f11710011557ed2decac",
    password: "correct horse",
  },
  pbkdf2Phc: {
    hash: "$pbkdf2-sha256$i=80000,l=64$TmFDbA$TdzY9guYviGDDO5e8icB+WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ",
    password: "Password",
  },
  pbkdf2Passlib: {
    hash: "$pbkdf2-sha256$80000$TmFDbA$TdzY9guYviGDDO5e8icB.WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ",
    password: "Password",
  },
  pbkdf2Django: {
    hash: "pbkdf2_sha256$80000$NaCl$TdzY9guYviGDDO5e8icB+WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ==",
    password: "Password",
  },
};

async function verdicts(passwordHash: string, password: string) {
  const parsed = parsePasswordHash(passwordHash);
  if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
  return {
    scheme: parsed.scheme,
    right: await parsed.verify(password),
    wrong: await parsed.verify(`${password}x`),
  };
}

describe("imported password hashes: each scheme verifies the right password and not a wrong one", () => {
  it.each([
    ["bcrypt $2a$", vectors.bcrypt2a, "bcrypt"],
    ["bcrypt $2b$", vectors.bcrypt2b, "bcrypt"],
    ["bcrypt $2y$", vectors.bcrypt2y, "bcrypt"],
    ["argon2i PHC", vectors.argon2i, "argon2"],
    ["scrypt PHC (passlib)", vectors.scryptPasslib, "scrypt"],
    ["scrypt werkzeug", vectors.scryptWerkzeug, "scrypt"],
    ["scrypt werkzeug, its default cost", vectors.scryptWerkzeugDefault, "scrypt"],
    ["PBKDF2-SHA256 PHC", vectors.pbkdf2Phc, "pbkdf2-sha256"],
    ["PBKDF2-SHA256 passlib", vectors.pbkdf2Passlib, "pbkdf2-sha256"],
    ["PBKDF2-SHA256 Django", vectors.pbkdf2Django, "pbkdf2-sha256"],
  ])("%s", async (_name, vector, scheme) => {
    expect(await verdicts(vector.hash, vector.password)).toEqual({ scheme, right: true, wrong: false });
  });

  it.each([
    ["argon2id", 2],
    ["argon2d", 0],
  ] as const)("%s PHC", async (_name, algorithm) => {
    const passwordHash = await hash("correct horse", { algorithm, memoryCost: 4096, timeCost: 1 });
    expect(await verdicts(passwordHash, "correct horse")).toEqual({
      scheme: "argon2",
      right: true,
      wrong: false,
    });
  });
});

describe("imported password hashes: what is refused, with the reason", () => {
  it.each([
    ["an unknown format", "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=", "unknown format"],
    ["MD5-crypt", "$1$saltsalt$qjXMvbEw8oaL.CzflDugX/", "unknown format"],
    ["a plain password", "correct horse", "unknown format"],
    ["a bcrypt hash cut short", "$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0Xou", "bcrypt: malformed"],
    [
      "a scrypt hash with N not a power of two",
      "scrypt:1000:8:1$NaCl$00112233445566778899aabbccddeeff",
      "scrypt: malformed",
    ],
    ["an argon2 hash that is not PHC", "$argon2id$v=19$m=x$abc", "argon2: malformed"],
    ["a Django hash whose key is not base64", "pbkdf2_sha256$80000$NaCl$***", "pbkdf2-sha256: malformed"],
  ])("%s", (_name, passwordHash, reason) => {
    expect(parsePasswordHash(passwordHash)).toEqual({ ok: false, reason });
  });
});

describe("imported password hashes: cost bounds, so that one login cannot burn the CPU", () => {
  it.each([
    [
      "bcrypt cost 16",
      "$2b$16$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
      "bcrypt: cost 16 is outside 4 to 15",
    ],
    [
      "argon2 memory above 256 MiB",
      "$argon2id$v=19$m=524288,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
      "argon2: memoryCost 524288 is above 262144",
    ],
    [
      "scrypt N·r·p above 2^21",
      "$scrypt$ln=20,r=8,p=1$TmFDbA$/bq.HJ00cgB4VucZDQHp/nxq18vII3gw53N2Y0s3MWIurzDZLiKjiG/xCSedmDDaxyevuUqD7m2DYMvfoswGQA",
      "scrypt: N·r·p 8388608 is above 2097152",
    ],
    [
      "PBKDF2 above 2,000,000 iterations",
      "pbkdf2_sha256$2000001$NaCl$TdzY9guYviGDDO5e8icB+WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ==",
      "pbkdf2-sha256: 2000001 iterations are above 2000000",
    ],
  ])("%s", (_name, passwordHash, reason) => {
    expect(parsePasswordHash(passwordHash)).toEqual({ ok: false, reason });
  });

  it("accepts each bound itself", () => {
    const atBounds = [
      "$2b$15$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
      "$scrypt$ln=18,r=8,p=1$TmFDbA$/bq.HJ00cgB4VucZDQHp/nxq18vII3gw53N2Y0s3MWIurzDZLiKjiG/xCSedmDDaxyevuUqD7m2DYMvfoswGQA",
      "pbkdf2_sha256$2000000$NaCl$TdzY9guYviGDDO5e8icB+WQaRBjQTAQUrv8Ih2s0q1ah1CWhIlgzVJrbhBtRybMXaicr3ruh0HhHj2Kzl/M8jQ==",
    ];
    expect(atBounds.map((passwordHash) => parsePasswordHash(passwordHash).ok)).toEqual([true, true, true]);
  });
});
