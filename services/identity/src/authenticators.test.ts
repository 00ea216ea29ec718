import { companyPolicy } from "@auth/grpc-kit";
import { SecondFactorKind } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { type AuthenticatorFacts, authenticatorsOf } from "./authenticators.js";
import { withPolicyDefaults } from "./companies.js";

const policy = withPolicyDefaults(companyPolicy({ twoFactorRoles: ["admin"] }));
const relyingParty = {
  rpId: "example.com",
  origins: ["https://login.example.com"],
  allowPasswordless: false,
};
const withPasskeys = withPolicyDefaults(companyPolicy({ passkeys: relyingParty }));
const passwordless = withPolicyDefaults(
  companyPolicy({ passkeys: { ...relyingParty, allowPasswordless: true } }),
);
const strict = withPolicyDefaults(
  companyPolicy({ minPasswordLength: 20, minPasswordLengthWithSecondFactor: 12 }),
);

/** A customer with a phone and nothing else, unless the test says otherwise. */
const user = (overrides: Partial<AuthenticatorFacts> = {}): AuthenticatorFacts => ({
  secondFactorRequired: false,
  role: "customer",
  phone: "+14155550123",
  totpSecret: null,
  hasPasskey: false,
  hasBackupCodes: false,
  ...overrides,
});
const { SMS, AUTHENTICATOR_APP, BACKUP_CODES, PASSKEY } = SecondFactorKind;

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

  it("begin with a passkey where the company has a relying party, which stands in for SMS as an app does", () => {
    expect(authenticatorsOf(user({ hasPasskey: true }), withPasskeys).secondFactors).toEqual([PASSKEY]);
    expect(
      authenticatorsOf(user({ hasPasskey: true, totpSecret: "sealed", hasBackupCodes: true }), withPasskeys)
        .secondFactors,
    ).toEqual([PASSKEY, AUTHENTICATOR_APP, BACKUP_CODES]);
  });

  it("leave a passkey out where the company has no relying party (passkeys are off)", () => {
    expect(authenticatorsOf(user({ hasPasskey: true }), policy).secondFactors).toEqual([SMS]);
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

  it("of a user with a passkey the company's relying party takes, as of one with an app", () => {
    expect(authenticatorsOf(user({ hasPasskey: true }), withPasskeys).secondFactorRequired).toBe(true);
    expect(authenticatorsOf(user({ hasPasskey: true }), policy).secondFactorRequired).toBe(false);
  });
});

describe("a passkey replaces the password", () => {
  it("for a user with a passkey where the company allows passwordless logins", () => {
    expect(authenticatorsOf(user({ hasPasskey: true }), passwordless).passkeyReplacesPassword).toBe(true);
  });

  it("not where the company does not allow it, has no relying party, or the user has no passkey", () => {
    expect(authenticatorsOf(user({ hasPasskey: true }), withPasskeys).passkeyReplacesPassword).toBe(false);
    expect(authenticatorsOf(user({ hasPasskey: true }), policy).passkeyReplacesPassword).toBe(false);
    expect(authenticatorsOf(user(), passwordless).passkeyReplacesPassword).toBe(false);
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
