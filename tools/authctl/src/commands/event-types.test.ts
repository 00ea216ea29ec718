import { describe, expect, it } from "vitest";
import { typeMatches } from "./event-types.js";

describe("authctl events tail --type", () => {
  it("takes a type as is", () => {
    expect(typeMatches("auth.login.succeeded", "auth.login.succeeded")).toBe(true);
    expect(typeMatches("auth.login.succeeded", "auth.login.failed")).toBe(false);
    expect(typeMatches("auth.login", "auth.login.failed")).toBe(false);
  });

  it("reads * as one word", () => {
    expect(typeMatches("auth.login.*", "auth.login.failed")).toBe(true);
    expect(typeMatches("auth.*.failed", "auth.second_factor.failed")).toBe(true);
    expect(typeMatches("auth.*", "auth.login.failed")).toBe(false);
  });

  it("reads > as the rest, one word or more", () => {
    expect(typeMatches("admin.>", "admin.api_key.changed")).toBe(true);
    expect(typeMatches("auth.login.>", "auth.login.succeeded")).toBe(true);
    expect(typeMatches("auth.login.>", "auth.login")).toBe(false);
    expect(typeMatches(">", "auth.otp.sent")).toBe(true);
  });
});
