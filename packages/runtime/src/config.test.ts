import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, env, parseConfig } from "./config.js";

const schema = z.object({
  GRPC_PORT: env.port(50051),
  DATABASE_URL: env.url(["postgres:", "postgresql:"]).optional(),
  SECRET: z.string().min(1, "is required"),
});

describe("configuration", () => {
  it("takes defaults for what is not set", () => {
    expect(parseConfig(schema, { SECRET: "s" })).toEqual({ GRPC_PORT: 50051, SECRET: "s" });
  });

  it("names a missing value", () => {
    expect(() => parseConfig(schema, {})).toThrow(/^SECRET: /);
  });

  it("names a bad value and shows it", () => {
    expect(() => parseConfig(schema, { SECRET: "s", GRPC_PORT: "eighty" })).toThrow(
      new ConfigError('GRPC_PORT: expected a number from 0 to 65535, got "eighty"'),
    );
  });

  it("refuses a URL of the wrong kind", () => {
    expect(() => parseConfig(schema, { SECRET: "s", DATABASE_URL: "redis://x" })).toThrow(
      /DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL/,
    );
  });

  it("names every problem in one line", () => {
    try {
      parseConfig(schema, { GRPC_PORT: "-1" });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).toMatch(/GRPC_PORT: .*; SECRET: /);
      expect(String((error as Error).message)).not.toContain("\n");
    }
  });
});

describe("configuration errors", () => {
  it("never show the value of a variable that may hold a credential", () => {
    try {
      parseConfig(schema, { SECRET: "s", DATABASE_URL: "mysql://user:hunter2@db" });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain("hunter2");
    }
  });
});

describe("the admin token's settings", () => {
  const service = z.object({
    ADMIN_TOKEN: env.refusedAdminToken(),
    ADMIN_TOKEN_SHA256: env.adminTokenSha256(),
  });
  const token = "t".repeat(43);
  const sha256 = "9f".repeat(32);

  it("take the token's SHA-256 in hex, in either case", () => {
    expect(parseConfig(service, { ADMIN_TOKEN_SHA256: sha256.toUpperCase() })).toEqual({
      ADMIN_TOKEN_SHA256: sha256,
    });
  });

  it("say in one line what ADMIN_TOKEN_SHA256 is when it is missing or not a SHA-256, never showing it", () => {
    expect(() => parseConfig(service, {})).toThrow(
      /^ADMIN_TOKEN_SHA256: is required: the SHA-256 of the admin token in hex/,
    );
    expect(() => parseConfig(service, { ADMIN_TOKEN_SHA256: token })).toThrow(
      new ConfigError(
        'ADMIN_TOKEN_SHA256: expected the SHA-256 of the admin token in hex, printf %s "$ADMIN_TOKEN" | sha256sum (docs/operations.md, "The admin token")',
      ),
    );
  });

  it("refuse the plain token in a process that only compares it, naming ADMIN_TOKEN_SHA256, never showing it", () => {
    try {
      parseConfig(service, { ADMIN_TOKEN: token, ADMIN_TOKEN_SHA256: sha256 });
      expect.unreachable();
    } catch (error) {
      const message = String((error as Error).message);
      expect(message).toMatch(
        /^ADMIN_TOKEN: is refused: this process holds only the token's hash; set ADMIN_TOKEN_SHA256 /,
      );
      expect(message).not.toContain(token);
    }
  });
});
