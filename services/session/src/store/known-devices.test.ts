import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { SessionState } from "@auth/proto/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deviceIdHashOf, deviceKeyOf, deviceUseOf, KnownDevices, networkOf } from "./known-devices.js";
import type { SessionRecord } from "./session-store.js";

const day = 24 * 60 * 60_000;
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const chrome =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const laptop = "lApT0p-0123456789abcdef";
const phone = "pH0nE-0123456789abcdef";

/** An authorized session of the user, from the device id (none: "") at the address. */
const signIn = (
  deviceId: string,
  clientAddress = "198.51.100.7",
  userAgent = firefox,
  userId = "u1",
): SessionRecord => ({
  sessionId: `s-${Math.random()}`,
  companyId: "c1",
  userId,
  state: SessionState.AUTHORIZED,
  loginId: "ann@example.com",
  passwordChangeRequired: false,
  tokenHash: "",
  createdAt: 0,
  expiresAt: 0,
  userAgent,
  clientAddress,
  ...(deviceIdHashOf(deviceId) ? { deviceIdHash: deviceIdHashOf(deviceId) } : {}),
});

describe('a device and its network (docs/decisions.md, "Known devices")', () => {
  it("keeps the SHA-256 of a device id of the right shape, and takes any other as none", () => {
    expect(deviceIdHashOf(laptop)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(deviceIdHashOf(laptop)).not.toContain(laptop);
    for (const bad of ["", "short", "x".repeat(129), "has space 0123456789", "ünïcode-0123456789ab"])
      expect(deviceIdHashOf(bad)).toBeUndefined();
  });

  it("is the network's /24 of an IPv4 address and /48 of an IPv6 one", () => {
    expect(networkOf("198.51.100.7")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:aa:bb::1")).toBe("2001:db8:aa:0:0:0:0:0/48");
  });

  it("is one device across addresses of one network, another in another network", () => {
    expect(deviceKeyOf(signIn(laptop, "198.51.100.7"))).toBe(deviceKeyOf(signIn(laptop, "198.51.100.200")));
    expect(deviceKeyOf(signIn(laptop, "198.51.100.7"))).not.toBe(deviceKeyOf(signIn(laptop, "203.0.113.7")));
    expect(deviceKeyOf(signIn(laptop))).not.toBe(deviceKeyOf(signIn(phone)));
  });

  it("is the browser and system without a device id, whatever their versions", () => {
    const newer = firefox.replaceAll("140.0", "141.0");
    expect(deviceKeyOf(signIn("", undefined, firefox))).toBe(deviceKeyOf(signIn("", undefined, newer)));
    expect(deviceKeyOf(signIn("", undefined, firefox))).not.toBe(deviceKeyOf(signIn("", undefined, chrome)));
  });
});

describe.each(keyValueKinds())("known devices on $name", (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let devices: KnownDevices;

  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    devices = new KnownDevices({ now: () => now });
  });
  afterEach(async () => {
    await kv.close();
  });
  /** A sign-in's device recorded as the step that authorizes its session records it. */
  const recordUse = async (session: SessionRecord, days: number) =>
    deviceUseOf(await kv.writeInOrder(devices.recording(session, days)));

  it("records the user's first sign-in silently", async () => {
    expect(await recordUse(signIn(laptop), 90)).toBe("first");
  });

  it("finds a device known from then on, in its network", async () => {
    await recordUse(signIn(laptop), 90);
    expect(await recordUse(signIn(laptop), 90)).toBe("known");
    expect(await recordUse(signIn(laptop, "198.51.100.99"), 90)).toBe("known");
  });

  it("finds a new device new once, and known after", async () => {
    await recordUse(signIn(laptop), 90);
    expect(await recordUse(signIn(phone), 90)).toBe("new");
    expect(await recordUse(signIn(phone), 90)).toBe("known");
  });

  it("finds a known device in a new network new", async () => {
    await recordUse(signIn(laptop), 90);
    expect(await recordUse(signIn(laptop, "203.0.113.7"), 90)).toBe("new");
  });

  it("keeps each user's devices apart", async () => {
    await recordUse(signIn(laptop), 90);
    expect(await recordUse(signIn(laptop, undefined, undefined, "u2"), 90)).toBe("first");
  });

  it("finds one of parallel sign-ins from one new device new, the others known", async () => {
    await recordUse(signIn(laptop), 90);
    const uses = await Promise.all(Array.from({ length: 8 }, () => recordUse(signIn(phone), 90)));
    expect(uses.filter((use) => use === "new")).toHaveLength(1);
    expect(uses.filter((use) => use === "known")).toHaveLength(7);
  });

  it("never finds one of a new user's parallel first sign-ins from one device new", async () => {
    const uses = await Promise.all(Array.from({ length: 8 }, () => recordUse(signIn(laptop), 90)));
    expect(uses.filter((use) => use === "first")).toHaveLength(1);
    expect(uses.filter((use) => use === "new")).toHaveLength(0);
  });

  // The in-process store keeps the test's time; Redis its own.
  it.runIf(kind.name === "in-process")(
    "forgets a device not used for the company's days: it is new again, the user still known",
    async () => {
      await recordUse(signIn(laptop), 90);
      now += 60 * day;
      await recordUse(signIn(phone), 90);
      now += 60 * day;
      // The laptop's last use was 120 days ago; the user signed in 60 days ago.
      expect(await recordUse(signIn(laptop), 90)).toBe("new");
      now += 89 * day;
      expect(await recordUse(signIn(laptop), 90)).toBe("known");
      now += 200 * day;
      expect(await recordUse(signIn(phone), 90)).toBe("new");
    },
  );

  it.runIf(kind.name === "in-process")("keeps a device as long as the company says", async () => {
    await recordUse(signIn(laptop), 7);
    now += 6 * day;
    expect(await recordUse(signIn(laptop), 7)).toBe("known");
    now += 8 * day;
    expect(await recordUse(signIn(laptop), 7)).toBe("new");
  });

  it("keeps only hashes: neither the device id, nor the user agent, nor the address", async () => {
    await recordUse(signIn(laptop, "198.51.100.7"), 90);
    const key = `known-device:c1:u1:${deviceKeyOf(signIn(laptop, "198.51.100.7"))}`;
    expect(await kv.get(key)).toBe(String(now));
    expect(key).not.toContain(laptop);
    expect(key).not.toContain("198.51.100");
  });
});
