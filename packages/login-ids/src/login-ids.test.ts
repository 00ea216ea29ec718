import { LoginIdKind } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { checkSubjectOf, normalizeLoginId, normalizePhone } from "./login-ids.js";

describe("login ID normalisation", () => {
  it("trims and lower-cases an e-mail", () => {
    expect(normalizeLoginId("  Ann@Example.COM ", "US")).toEqual({
      kind: LoginIdKind.EMAIL,
      value: "ann@example.com",
    });
  });

  it("reads a phone number with a country code as E.164", () => {
    expect(normalizeLoginId("+44 20 7946 0958", "US")).toEqual({
      kind: LoginIdKind.PHONE,
      value: "+442079460958",
    });
  });

  it("reads a national phone number with the company's region", () => {
    expect(normalizeLoginId("(201) 555-0123", "US")).toEqual({
      kind: LoginIdKind.PHONE,
      value: "+12015550123",
    });
    expect(normalizeLoginId("020 7946 0958", "GB")).toEqual({
      kind: LoginIdKind.PHONE,
      value: "+442079460958",
    });
  });

  it("takes anything else as a login name, compared case-insensitively", () => {
    expect(normalizeLoginId(" Ann.Smith ", "US")).toEqual({
      kind: LoginIdKind.LOGIN_NAME,
      value: "ann.smith",
    });
  });

  it("takes digits that are no valid phone number as a login name", () => {
    expect(normalizeLoginId("12345", "US")).toEqual({ kind: LoginIdKind.LOGIN_NAME, value: "12345" });
  });

  it("refuses what is not a valid phone number as a phone", () => {
    expect(normalizePhone("not a phone", "US")).toBeUndefined();
    expect(normalizePhone("+1 555", "US")).toBeUndefined();
  });
});

describe("whose budget a guess spends", () => {
  it("is the user's when the login ID names one, whichever login ID was typed", () => {
    expect(checkSubjectOf({ id: "u-1" }, "ann@example.com")).toEqual({ userId: "u-1" });
    expect(checkSubjectOf({ id: "u-1" }, "+12015550123")).toEqual({ userId: "u-1" });
  });

  it("is the normalised login ID's when it names no user", () => {
    expect(checkSubjectOf(undefined, "nobody")).toEqual({ loginId: "nobody" });
  });
});
