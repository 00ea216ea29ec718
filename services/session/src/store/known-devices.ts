import { createHash } from "node:crypto";
import { browserAndSystem } from "@auth/i18n";
import type { Clock, Write } from "@auth/kv";
import { clientAddressKey, deviceIdOf } from "@auth/runtime";
import type { SessionRecord } from "./session-store.js";

/** What a sign-in's device was to its user (docs/decisions.md, "Known devices"). */
export type DeviceUse = "known" | "new" | "first";

/**
 * The network a device is known in: an IPv4 address's /24, an IPv6 address's /48 (a site), so that
 * a new address from the same provider's pool or the same home is no new network.
 */
export const networkOf = (clientAddress: string): string => clientAddressKey(clientAddress, 48, 24);

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/** The SHA-256 of an X-Device-Id of the right shape; undefined for none or any other. */
export function deviceIdHashOf(deviceId: string | undefined): string | undefined {
  const shaped = deviceIdOf(deviceId);
  return shaped === "" ? undefined : sha256(`device-id:${shaped}`);
}

/**
 * One device in one network, as a hash: of the device id's hash, or without one of the browser and
 * system the user agent names, and of the address's network. Nothing the session list does not keep.
 */
export function deviceKeyOf(
  session: Pick<SessionRecord, "deviceIdHash" | "userAgent" | "clientAddress">,
): string {
  const { browser, os } = browserAndSystem(session.userAgent ?? "");
  const device = session.deviceIdHash ?? sha256(`user-agent:${browser}/${os}`);
  return sha256(`${device}\n${networkOf(session.clientAddress ?? "")}`);
}

const dayMs = 24 * 60 * 60_000;
/** A user is known to have signed in as long as the longest a company keeps a device known. */
const userMemoryMs = 400 * dayMs;

const deviceKey = (companyId: string, userId: string, device: string) =>
  `known-device:${companyId}:${userId}:${device}`;
const userKey = (companyId: string, userId: string) => `signed-in:${companyId}:${userId}`;

/**
 * The devices (and networks) each user signed in from in the last days the company keeps them, each
 * under a key of its own that lives that long from its last use. A device is recorded by an atomic
 * exchange that answers whether it was there, made in the step that writes the authorized session
 * (docs/performance.md, "Redis round trips per login"): of parallel sign-ins from one new device,
 * one finds it new.
 */
export class KnownDevices {
  constructor(private readonly clock: Clock) {}

  /**
   * The writes that record that the session's user signed in from its device, known from then on
   * for `days`: the device's and the user's sign-in, each an exchange answering whether it was
   * there (useOf).
   */
  recording(session: SessionRecord, days: number): Write[] {
    const { companyId, userId } = session;
    const now = String(this.clock.now());
    return [
      {
        op: "exchange",
        key: deviceKey(companyId, userId, deviceKeyOf(session)),
        value: now,
        ttlMs: days * dayMs,
      },
      { op: "exchange", key: userKey(companyId, userId), value: now, ttlMs: userMemoryMs },
    ];
  }
}

/**
 * What recording's writes found: "known" when the device was known; "new" when it was not and the
 * user had signed in before (the notice); "first" for the user's first sign-in (none in the last 400
 * days), which records silently. Of parallel first sign-ins from one device, the one that did not
 * record it is told "known", never "new".
 */
export function deviceUseOf([deviceWasKnown, signedInBefore]: readonly boolean[]): DeviceUse {
  if (deviceWasKnown) return "known";
  return signedInBefore ? "new" : "first";
}
