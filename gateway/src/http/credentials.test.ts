import { AuthError } from "@auth/errors";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { bearerTokenOf } from "./credentials.js";

const requestWith = (authorization?: string) =>
  ({ get: (name: string) => (name === "authorization" ? authorization : undefined) }) as Request;

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AuthError) return error.code;
    throw error;
  }
  return undefined;
};

describe("Authorization: Bearer", () => {
  it.each([
    "Bearer abc.DEF-_~+/==",
    "bearer abc.DEF-_~+/==",
    "BEARER abc.DEF-_~+/==",
    "Bearer  abc.DEF-_~+/==",
  ])("takes the token of %j: the scheme is case-insensitive (RFC 7235 §2.1)", (header) => {
    expect(bearerTokenOf(requestWith(header))).toBe("abc.DEF-_~+/==");
  });

  it("answers auth.header.missing without the header", () => {
    expect(codeOf(() => bearerTokenOf(requestWith()))).toBe("auth.header.missing");
  });

  it.each([
    "Token abc",
    "Bearer",
    "Bearer ",
    "Bearer a b",
    "bearer",
    "Bearerabc",
    "Bearer a=b",
    " Bearer abc",
  ])("answers auth.header.invalid for %j", (header) => {
    expect(codeOf(() => bearerTokenOf(requestWith(header)))).toBe("auth.header.invalid");
  });
});
