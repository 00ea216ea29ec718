import { companyPolicy } from "@auth/grpc-kit";
import { PasswordProblem } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { commonPasswordCount, commonPasswordEntries, isCommonPassword } from "./common-passwords.js";
import { policyInput, withPolicyDefaults } from "./companies.js";
import { contextWords, type PasswordRules, passwordProblem } from "./password-policy.js";
import type { CompanyRow } from "./schema.js";
import type { StoredUser } from "./store/identity-store.js";
import { passwordRulesOf } from "./users.js";

const rules = (overrides: Partial<PasswordRules> = {}): PasswordRules => ({
  policy: withPolicyDefaults(companyPolicy()),
  minLength: 15,
  contextWords: [],
  ...overrides,
});

const company = (policy = companyPolicy()): CompanyRow => ({
  id: "00000000-0000-4000-8000-000000000001",
  code: "northwind",
  name: "Northwind Traders",
  suspended: false,
  policy: withPolicyDefaults(policy),
  createdAt: new Date(),
});

const user = (overrides: Partial<StoredUser> = {}): StoredUser => ({
  id: "00000000-0000-4000-8000-000000000002",
  companyId: "00000000-0000-4000-8000-000000000001",
  role: "customer",
  status: "active",
  profileMnemocode: "P-1",
  loginName: "margaret",
  phone: "+14155550123",
  email: "m.peacock@example.com",
  passwordHash: null,
  passwordNfkc: true,
  passwordClaimId: null,
  controlQuestion: null,
  controlAnswerHash: null,
  secondFactorRequired: false,
  passwordChangeRequired: false,
  totpSecret: null,
  totpPendingSecret: null,
  totpLastStep: -1,
  externalId: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  hasBackupCodes: false,
  hasPasskey: false,
  ...overrides,
});

describe("the blocklist of common passwords", () => {
  it("holds the 100,000 most used passwords, read once", () => {
    expect(commonPasswordEntries()).toBe(commonPasswordCount);
    expect(commonPasswordCount).toBeGreaterThanOrEqual(100_000);
  });

  it.each(["password1", "PASSWORD1", "PassWord1", "qwertyuiop", "iloveyou"])("finds %s", (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it("finds an entry typed in another Unicode composition (NFKC), as full-width letters", () => {
    // Full-width "password1" is NFKC "password1".
    expect(isCommonPassword("ｐａｓｓｗｏｒｄ１")).toBe(true);
  });

  it("does not find a passphrase of the user's own", () => {
    expect(isCommonPassword("violet kettle under the bridge")).toBe(false);
  });

  it("is looked up in microseconds", () => {
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) isCommonPassword(`some passphrase number ${i}`);
    expect((performance.now() - started) / 10_000).toBeLessThan(0.05);
  });
});

describe("a password a user sets", () => {
  it.each([
    ["shorter than the user's least length", "fourteen chars", PasswordProblem.TOO_SHORT],
    ["longer than 256 characters", "a".repeat(257), PasswordProblem.TOO_LONG],
  ])("%s", (_, password, problem) => {
    expect(passwordProblem(password, rules())).toBe(problem);
  });

  it("is refused when common, in any case, once long enough to be checked", () => {
    expect(passwordProblem("Password1", rules({ minLength: 8 }))).toBe(PasswordProblem.COMMON);
    expect(passwordProblem("PASSWORD1", rules({ minLength: 8 }))).toBe(PasswordProblem.COMMON);
    expect(passwordProblem("1qaz2wsx3edc4rfv", rules())).toBe(PasswordProblem.COMMON);
  });

  it("counts its length in characters of its NFKC form", () => {
    // 15 code points as typed; "ﬁ" (one ligature) is "fi" (two) in NFKC.
    expect(passwordProblem("ﬁsh under a sky", rules({ minLength: 16 }))).toBeUndefined();
    expect(passwordProblem("😀".repeat(15), rules())).toBeUndefined();
    expect(passwordProblem("😀".repeat(14), rules())).toBe(PasswordProblem.TOO_SHORT);
  });

  it("accepts 64 characters and more, up to 256", () => {
    expect(passwordProblem("violet kettle ".repeat(5).slice(0, 64), rules())).toBeUndefined();
    expect(
      passwordProblem("x".repeat(7) + "violet kettle ".repeat(18).slice(0, 249), rules()),
    ).toBeUndefined();
  });

  it("is refused when it contains a context word, whatever its case", () => {
    const context = rules({ contextWords: contextWords(["Northwind Traders", "margaret"]) });
    expect(passwordProblem("my NorthWind kettle", context)).toBe(PasswordProblem.CONTEXT);
    expect(passwordProblem("kettle of traders!", context)).toBe(PasswordProblem.CONTEXT);
    expect(passwordProblem("MARGARET's own kettle", context)).toBe(PasswordProblem.CONTEXT);
    expect(passwordProblem("violet kettle under", context)).toBeUndefined();
  });

  it("applies the company's regex last, and none when the company sets none", () => {
    const digit = rules({ policy: withPolicyDefaults(companyPolicy({ passwordRegex: "[0-9]" })) });
    expect(passwordProblem("violet kettle under", digit)).toBe(PasswordProblem.REGEX_MISMATCH);
    expect(passwordProblem("violet kettle under 9", digit)).toBeUndefined();
  });
});

describe("context words", () => {
  it("are the values and their words of at least four characters, NFKC and lower case", () => {
    expect(contextWords(["Northwind Traders", "ab", "m.peacock", "ＡＣＭＥ"])).toEqual([
      "northwind traders",
      "northwind",
      "traders",
      "m.peacock",
      "peacock",
      "acme",
    ]);
  });
});

describe("the rules of a user's password", () => {
  it("ask 15 characters of a user without a second factor and 8 of one with it (the flag, the role or an authenticator app)", () => {
    expect(passwordRulesOf(user(), company()).minLength).toBe(15);
    expect(passwordRulesOf(user({ secondFactorRequired: true }), company()).minLength).toBe(8);
    expect(passwordRulesOf(user({ totpSecret: "sealed-secret" }), company()).minLength).toBe(8);
    const byRole = company(companyPolicy({ twoFactorRoles: ["admin"] }));
    expect(passwordRulesOf(user({ role: "admin" }), byRole).minLength).toBe(8);
  });

  it("take the company's own lengths", () => {
    const strict = company(companyPolicy({ minPasswordLength: 20, minPasswordLengthWithSecondFactor: 12 }));
    expect(passwordRulesOf(user(), strict).minLength).toBe(20);
    expect(passwordRulesOf(user({ secondFactorRequired: true }), strict).minLength).toBe(12);
  });

  it("look for the company's name and code and the user's login IDs", () => {
    const { contextWords: words } = passwordRulesOf(user(), company());
    expect(words).toEqual(
      expect.arrayContaining(["northwind", "traders", "margaret", "peacock", "14155550123", "5550123"]),
    );
    expect(words).not.toContain("example.com");
  });
});

describe("a policy's least password lengths", () => {
  it.each([
    [{ minPasswordLength: 14 }],
    [{ minPasswordLength: 65 }],
    [{ minPasswordLengthWithSecondFactor: 7 }],
  ])("are refused below the floor or above 64: %o", (fields) => {
    expect(policyInput.safeParse(companyPolicy(fields)).success).toBe(false);
  });

  it("are 0 (the defaults, 15 and 8) or from the floor", () => {
    expect(policyInput.safeParse(companyPolicy({ minPasswordLength: 15 })).success).toBe(true);
    expect(policyInput.safeParse(companyPolicy({ minPasswordLengthWithSecondFactor: 8 })).success).toBe(true);
    expect(withPolicyDefaults(companyPolicy())).toMatchObject({
      minPasswordLength: 15,
      minPasswordLengthWithSecondFactor: 8,
    });
  });

  it("are never below the floor, even as stored before the rule", () => {
    const stored = { ...companyPolicy(), minPasswordLength: 9, minPasswordLengthWithSecondFactor: 4 };
    expect(withPolicyDefaults(stored)).toMatchObject({
      minPasswordLength: 15,
      minPasswordLengthWithSecondFactor: 8,
    });
  });
});
