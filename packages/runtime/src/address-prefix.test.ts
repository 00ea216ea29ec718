import { describe, expect, it } from "vitest";
import { clientAddressKey, ipv6Groups } from "./address-prefix.js";

describe("reading an IPv6 address", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["2001:db8::", [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]],
    ["2001:DB8:0:0:1::2", [0x2001, 0xdb8, 0, 0, 1, 0, 0, 2]],
    ["2001:db8:1:2:3:4:5:6", [0x2001, 0xdb8, 1, 2, 3, 4, 5, 6]],
    ["::ffff:192.0.2.1", [0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201]],
    ["64:ff9b::198.51.100.7", [0x64, 0xff9b, 0, 0, 0, 0, 0xc633, 0x6407]],
    ["fe80::1%eth0", [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
  ])("expands %s to its eight groups", (address, groups) => {
    expect(ipv6Groups(address)).toEqual(groups);
  });

  it.each(["192.0.2.1", "", "unknown", "2001:db8::1::2", "[2001:db8::1]", "2001:db8::g"])(
    "reads %j as no IPv6 address",
    (address) => {
      expect(ipv6Groups(address)).toBeUndefined();
    },
  );
});

describe("the client an address is counted as", () => {
  it("is an IPv4 address by itself", () => {
    expect(clientAddressKey("192.0.2.1", 64)).toBe("192.0.2.1");
    expect(clientAddressKey("192.0.2.2", 64)).not.toBe(clientAddressKey("192.0.2.1", 64));
  });

  it("is the /64 of an IPv6 address by default: every address of one /64 is one client", () => {
    const keys = new Set(
      Array.from({ length: 40 }, (_, i) =>
        clientAddressKey(`2001:db8:aa:bb:${i.toString(16)}::${i + 1}`, 64),
      ),
    );
    expect([...keys]).toEqual(["2001:db8:aa:bb:0:0:0:0/64"]);
  });

  it("tells different /64s apart", () => {
    expect(clientAddressKey("2001:db8:aa:bb::1", 64)).not.toBe(clientAddressKey("2001:db8:aa:bc::1", 64));
  });

  it("is the same network whichever way the address is written", () => {
    expect(clientAddressKey("2001:DB8:AA:BB:0:0:0:1", 64)).toBe(clientAddressKey("2001:db8:aa:bb::ffff", 64));
  });

  it.each([
    [48, "2001:db8:aa:0:0:0:0:0/48"],
    [56, "2001:db8:aa:bb00:0:0:0:0/56"],
    [60, "2001:db8:aa:bbc0:0:0:0:0/60"],
    [1, "0:0:0:0:0:0:0:0/1"],
    [127, "2001:db8:aa:bbcd:1:2:3:4/127"],
    [128, "2001:db8:aa:bbcd:1:2:3:5/128"],
  ])("keeps the first %i bits of the network, as configured", (prefix, key) => {
    expect(clientAddressKey("2001:db8:aa:bbcd:1:2:3:5", prefix)).toBe(key);
  });

  it("is the IPv4 address of an IPv4-mapped IPv6 address, whatever the prefix", () => {
    expect(clientAddressKey("::ffff:192.0.2.1", 64)).toBe("192.0.2.1");
    expect(clientAddressKey("::FFFF:c000:0201", 48)).toBe("192.0.2.1");
    expect(clientAddressKey("::ffff:192.0.2.2", 64)).not.toBe(clientAddressKey("::ffff:192.0.2.1", 64));
  });

  it("is what it is for anything that is no address", () => {
    expect(clientAddressKey("", 64)).toBe("");
    expect(clientAddressKey("unknown", 64)).toBe("unknown");
  });

  it.each([
    ["198.51.100.77", 24, "198.51.100.0/24"],
    ["198.51.100.77", 16, "198.51.0.0/16"],
    ["198.51.100.77", 20, "198.51.96.0/20"],
    ["::ffff:198.51.100.77", 24, "198.51.100.0/24"],
  ])(
    "is the network of an IPv4 address %s when a prefix shorter than 32 is given: /%i",
    (address, prefix, key) => {
      expect(clientAddressKey(address, 48, prefix)).toBe(key);
    },
  );
});
