import { companyPolicy } from "@auth/grpc-kit";
import { SecondFactorKind } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { type AuthenticatorFacts, authenticatorsOf } from "./authenticators.js";
import { withPolicyDefaults } from "./companies.js";

const policy = withPolicyDefaults(companyPolicy({ twoFactorRoles: ["admin"] }));
const strict = withPolicyDefaults(
  companyPolicy({ minPasswordLength: 20, minPasswordLengthWithSecondFactor: 12 }),
);

/** A customer with a phone and nothing else, unless the test says otherwise. */
const user = (overrides: Partial<AuthenticatorFacts> = {}): AuthenticatorFacts => ({
  secondFactorRequired: false,
  role: "customer",
  phone: "+14155550123",
  totpSecret: null,
  hasBackupCodes: false,
  ...overrides,
});
const { SMS, AUTHENTICATOR_APP, BACKUP_CODES } = SecondFactorKind;

describe("a user's second factors, in the order a login offers them", () => {
  it("are SMS for a user with a phone", () => {
    expect(authenticatorsOf(user(), policy).secondFactors).toEqual([SMS]);
  });

  it("are none for a user without a phone, an app or backup codes", () => {
    expect(authenticatorsOf(user({ phone: null }), policy).secondFactors).toEqual([]);
  });

  it("are the app alone for a user with an app, SMS no longer listed", () => {
    expect(authenticatorsOf(user({ totpSecret: "sealed" }), policy).secondFactors).toEqual([
      AUTHENTICATOR_APP,
    ]);
  });

  it("end with backup codes while the user has some left", () => {
    expect(authenticatorsOf(user({ hasBackupCodes: true }), policy).secondFactors).toEqual([
      SMS,
      BACKUP_CODES,
    ]);
    expect(
      authenticatorsOf(user({ totpSecret: "sealed", hasBackupCodes: true }), policy).secondFactors,
    ).toEqual([AUTHENTICATOR_APP, BACKUP_CODES]);
    expect(authenticatorsOf(user({ phone: null, hasBackupCodes: true }), policy).secondFactors).toEqual([
      BACKUP_CODES,
    ]);
  });
});

describe("a second factor is required", () => {
  it("not of a plain user, whatever second factors the user has", () => {
    expect(authenticatorsOf(user(), policy).secondFactorRequired).toBe(false);
    expect(authenticatorsOf(user({ hasBackupCodes: true }), policy).secondFactorRequired).toBe(false);
  });

  it("of a user with the flag", () => {
    expect(authenticatorsOf(user({ secondFactorRequired: true }), policy).secondFactorRequired).toBe(true);
  });

  it("of a user whose role is in the policy's two_factor_roles", () => {
    expect(authenticatorsOf(user({ role: "admin" }), policy).secondFactorRequired).toBe(true);
  });

  it("of a user with an app: enrolling one is asking for it", () => {
    expect(authenticatorsOf(user({ totpSecret: "sealed" }), policy).secondFactorRequired).toBe(true);
  });
});

describe("the least password length", () => {
  it("is the policy's with-second-factor length when a second factor is required, else its plain one", () => {
    // The default policy: 15 and 8; the strict one: 20 and 12, and no role of its own.
    for (const [facts, length, strictLength] of [
      [user(), 15, 20],
      [user({ hasBackupCodes: true }), 15, 20],
      [user({ secondFactorRequired: true }), 8, 12],
      [user({ role: "admin" }), 8, 20],
      [user({ totpSecret: "sealed" }), 8, 12],
    ] as const) {
      expect(authenticatorsOf(facts, policy).minPasswordLength).toBe(length);
      expect(authenticatorsOf(facts, strict).minPasswordLength).toBe(strictLength);
    }
  });
});
