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
