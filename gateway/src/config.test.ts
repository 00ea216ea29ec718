import { parseConfig } from "@auth/runtime";
import { describe, expect, it } from "vitest";
import { configSchema } from "./config.js";

/** The gateway's configuration from these variables, with plain text so that no certificate is needed. */
const configOf = (variables: Record<string, string>) =>
  parseConfig(configSchema, { GRPC_PLAINTEXT_DEV: "true", ...variables });

describe("RATE_LIMIT_IPV6_PREFIX", () => {
  it("is 64 when unset: an IPv6 client is its /64", () => {
    expect(configOf({}).RATE_LIMIT_IPV6_PREFIX).toBe(64);
  });

  it.each(["1", "48", "56", "128"])("takes %s", (value) => {
    expect(configOf({ RATE_LIMIT_IPV6_PREFIX: value }).RATE_LIMIT_IPV6_PREFIX).toBe(Number(value));
  });

  it.each(["0", "129", "64.5", "-1", "x"])("refuses %j, naming the variable and the range", (value) => {
    expect(() => configOf({ RATE_LIMIT_IPV6_PREFIX: value })).toThrow(
      `RATE_LIMIT_IPV6_PREFIX: expected a prefix length from 1 to 128, got "${value}"`,
    );
  });
});

describe("GRPC_KEEPALIVE_TIMEOUT_MS", () => {
  it("is a second when unset: a hung replica is left within a second and a half", () => {
    expect(configOf({}).GRPC_KEEPALIVE_TIMEOUT_MS).toBe(1_000);
  });

  it("takes a longer wait for a machine whose disk holds the processes", () => {
    expect(configOf({ GRPC_KEEPALIVE_TIMEOUT_MS: "20000" }).GRPC_KEEPALIVE_TIMEOUT_MS).toBe(20_000);
  });

  it.each(["0", "-5", "x"])("refuses %j, naming the variable", (value) => {
    expect(() => configOf({ GRPC_KEEPALIVE_TIMEOUT_MS: value })).toThrow("GRPC_KEEPALIVE_TIMEOUT_MS");
  });
});
