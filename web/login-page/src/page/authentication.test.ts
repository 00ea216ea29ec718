import { describe, expect, it } from "vitest";
import { type SessionAuthentication, signedInWithApp } from "./authentication.js";

const signedInWith = (...kinds: string[]): SessionAuthentication => ({
  level: kinds.length,
  amr: [],
  factors: kinds.map((kind) => ({ kind, amr: "", authenticated_at: "2026-01-01T00:00:00.000Z" })),
});

describe("what the page knows of the user's authenticator app from the session's factors", () => {
  it("knows the user has an app when the session was signed in with one of its codes", () => {
    expect(signedInWithApp(signedInWith("password", "app_code"))).toBe(true);
    expect(signedInWithApp(signedInWith("federated", "app_code"))).toBe(true);
  });

  it("does not know it from another factor, or before the session list has come", () => {
    expect(signedInWithApp(signedInWith("password", "backup_code"))).toBe(false);
    expect(signedInWithApp(signedInWith("password", "sms_code"))).toBe(false);
    expect(signedInWithApp(signedInWith("federated"))).toBe(false);
    expect(signedInWithApp(undefined)).toBe(false);
  });
});
