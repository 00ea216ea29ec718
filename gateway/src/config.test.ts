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
  it("is 4 s when unset: longer than a live process's stalls at 10× load, a hung replica left within 4.5 s", () => {
    expect(configOf({}).GRPC_KEEPALIVE_TIMEOUT_MS).toBe(4_000);
  });

  it("takes a longer wait for a machine whose disk holds the processes", () => {
    expect(configOf({ GRPC_KEEPALIVE_TIMEOUT_MS: "20000" }).GRPC_KEEPALIVE_TIMEOUT_MS).toBe(20_000);
  });

  it.each(["0", "-5", "x"])("refuses %j, naming the variable", (value) => {
    expect(() => configOf({ GRPC_KEEPALIVE_TIMEOUT_MS: value })).toThrow("GRPC_KEEPALIVE_TIMEOUT_MS");
  });
});

describe("TRUST_PROXY", () => {
  it("is loopback when unset: a proxy on the gateway's own machine (the login page's server)", () => {
    expect(configOf({}).TRUST_PROXY).toEqual(["loopback"]);
  });

  it.each<[string, string[]]>([
    ["10.42.0.0/16", ["10.42.0.0/16"]],
    ["10.0.0.7, fd00:42::/64 ,192.0.2.1", ["10.0.0.7", "fd00:42::/64", "192.0.2.1"]],
    ["loopback,linklocal,uniquelocal", ["loopback", "linklocal", "uniquelocal"]],
    ["::ffff:10.0.0.1", ["::ffff:10.0.0.1"]],
    ["none", []],
    ["false", []],
  ])("takes the proxies' addresses, CIDRs and express's range names: %j", (value, proxies) => {
    expect(configOf({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(proxies);
  });

  it.each([
    ["1", "a hop count believes X-Forwarded-For from any peer"],
    ["2", "a hop count believes X-Forwarded-For from any peer"],
    ["true", "true believes X-Forwarded-For from any peer"],
    ["0.0.0.0/0", '"0.0.0.0/0" takes every peer for a proxy'],
    ["::/0", '"::/0" takes every peer for a proxy'],
    ["10.0.0.0/33", '"10.0.0.0/33" has no prefix length from 1 to 32'],
    ["10.0.0.0/255.0.0.0", '"10.0.0.0/255.0.0.0" has no prefix length from 1 to 32'],
    ["ingress-nginx", '"ingress-nginx" is no address, CIDR or range name'],
    ["yes", '"yes" is no address, CIDR or range name'],
    ["10.0.0.1,,10.0.0.2", "an empty entry"],
    ["", "an empty entry"],
  ])("refuses %j at start-up in one line that names the variable and says why", (value, why) => {
    expect(() => configOf({ TRUST_PROXY: value })).toThrow(
      `TRUST_PROXY: ${why}; expected the proxies' addresses or CIDRs, comma-separated (e.g. 10.0.0.0/8,fd00::/8), or loopback, linklocal, uniquelocal, or none, got "${value}"`,
    );
  });
});
