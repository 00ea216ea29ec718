import type { AuthError } from "@auth/errors";
import { RecoveryMethod, SecondFactorKind, type User, UserStatus } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import type { TenantCompany } from "../endpoint/context.js";
import { tenantCompany } from "../endpoint/tenant-company.testing.js";
import { maskEmail } from "./mask-email.js";
import { chooseRecoveryMethod, type MethodName } from "./recovery-methods.js";

const company = (recovery: Partial<NonNullable<TenantCompany["policy"]["recovery"]>> = {}) =>
  tenantCompany({
    recovery: {
      order: [],
      disabled: [],
      disabledByRole: {},
      linkBase: "https://acme.example/recover",
      ...recovery,
    },
  });
const user = (overrides: Partial<User> = {}): User => ({
  id: "u",
  companyId: "c",
  role: "customer",
  status: UserStatus.ACTIVE,
  profileMnemocode: "P",
  hasPassword: true,
  passwordChangeRequired: false,
  phone: "+12015550123",
  email: "ann@example.com",
  controlQuestion: "Pet?",
  authenticators: {
    secondFactors: [SecondFactorKind.SMS],
    secondFactorRequired: false,
    minPasswordLength: 15,
    passkeyReplacesPassword: false,
  },
  ...overrides,
});
const codeOf = (run: () => MethodName) => {
  try {
    return run();
  } catch (error) {
    return (error as AuthError).code;
  }
};

describe("choosing the recovery method", () => {
  it("defaults to PHONE, then MAIL, then QUESTION, by what the user has set up", () => {
    expect(chooseRecoveryMethod(company(), user(), undefined)).toBe("PHONE");
    expect(chooseRecoveryMethod(company(), user({ phone: undefined }), undefined)).toBe("MAIL");
    expect(chooseRecoveryMethod(company(), user({ phone: undefined, email: undefined }), undefined)).toBe(
      "QUESTION",
    );
  });

  it("follows the company's order", () => {
    expect(chooseRecoveryMethod(company({ order: [RecoveryMethod.QUESTION] }), user(), undefined)).toBe(
      "QUESTION",
    );
  });

  it("gives the requested method when it is on and set up", () => {
    expect(chooseRecoveryMethod(company(), user(), "MAIL")).toBe("MAIL");
  });

  it("refuses a method the company or the role switched off with recovery.method.restricted", () => {
    expect(
      codeOf(() => chooseRecoveryMethod(company({ disabled: [RecoveryMethod.PHONE] }), user(), "PHONE")),
    ).toBe("recovery.method.restricted");
    const byRole = company({ disabledByRole: { customer: { methods: [RecoveryMethod.QUESTION] } } });
    expect(codeOf(() => chooseRecoveryMethod(byRole, user(), "QUESTION"))).toBe("recovery.method.restricted");
    expect(codeOf(() => chooseRecoveryMethod(company({ linkBase: "" }), user(), "MAIL"))).toBe(
      "recovery.method.restricted",
    );
  });

  it.each<[MethodName, Partial<User>, string]>([
    ["PHONE", { phone: undefined }, "recovery.phone.notset"],
    ["MAIL", { email: undefined }, "recovery.email.notset"],
    ["QUESTION", { controlQuestion: undefined }, "recovery.question.notset"],
  ])("answers a requested %s the user lacks with its notset code", (method, lacking, code) => {
    expect(codeOf(() => chooseRecoveryMethod(company(), user(lacking), method))).toBe(code);
  });

  it("answers the first method's notset code when the user has none of them", () => {
    const bare = user({ phone: undefined, email: undefined, controlQuestion: undefined });
    expect(codeOf(() => chooseRecoveryMethod(company(), bare, undefined))).toBe("recovery.phone.notset");
  });

  it("answers recovery.method.restricted when every method is off", () => {
    const none = company({ disabled: [RecoveryMethod.PHONE, RecoveryMethod.MAIL, RecoveryMethod.QUESTION] });
    expect(codeOf(() => chooseRecoveryMethod(none, user(), undefined))).toBe("recovery.method.restricted");
  });
});

describe("masked e-mail", () => {
  it("keeps the first character and the domain", () => {
    expect(maskEmail("ann.smith@example.com")).toBe("a********@example.com");
    expect(maskEmail("a@example.com")).toBe("a*@example.com");
  });
});
