import type { AuthError } from "@auth/errors";
import { DeliveryState } from "@auth/proto/audit";
import { describe, expect, it } from "vitest";
import {
  collect,
  deliveryStateName,
  deliveryStateOption,
  enabledOption,
  timeOption,
  wholeNumberOption,
} from "./audit-options.js";

/** The error a parse throws, for its code and message. */
function refusal(parse: () => unknown): AuthError | undefined {
  try {
    parse();
  } catch (error) {
    return error as AuthError;
  }
  return undefined;
}

describe("authctl audit events --from and --to", () => {
  it("take an RFC 3339 time with its zone, as the instant it names", () => {
    expect(timeOption("--from", "2026-01-02T03:04:05Z")?.toISOString()).toBe("2026-01-02T03:04:05.000Z");
    expect(timeOption("--to", "2026-01-02T05:04:05.250+02:00")?.toISOString()).toBe(
      "2026-01-02T03:04:05.250Z",
    );
  });

  it("leave the range open when not given", () => {
    expect(timeOption("--from", undefined)).toBeUndefined();
  });

  it.each(["2026-01-02", "2026-01-02T03:04:05", "yesterday", "2026-13-40T03:04:05Z", "1735786800", ""])(
    "refuse %j, naming the option and the form it takes",
    (value) => {
      const refused = refusal(() => timeOption("--from", value));
      expect(refused?.code).toBe("request.validation.failed");
      expect(refused?.message).toMatch(/^--from: an RFC 3339 time with its zone/);
    },
  );
});

describe("authctl's whole-number options (--limit, --days, --overlap-seconds)", () => {
  it("take a whole number within the bounds, the bounds included", () => {
    expect(wholeNumberOption("--limit", "1", 1, 1000)).toBe(1);
    expect(wholeNumberOption("--limit", "1000", 1, 1000)).toBe(1000);
    expect(wholeNumberOption("--days", "3650", 1, 3650)).toBe(3650);
    expect(wholeNumberOption("--limit", undefined, 1, 1000)).toBeUndefined();
  });

  it.each(["0", "1001", "-5", "2.5", "ten", "", "1e3"])(
    "refuse --limit %j, naming the option and its bounds",
    (value) => {
      const refused = refusal(() => wholeNumberOption("--limit", value, 1, 1000));
      expect(refused?.code).toBe("request.validation.failed");
      expect(refused?.message).toBe("--limit: a whole number from 1 to 1000");
    },
  );
});

describe("authctl webhooks deliveries --state", () => {
  it("names the states as the delivery table shows them, and every state when not given", () => {
    expect(deliveryStateOption("pending")).toBe(DeliveryState.PENDING);
    expect(deliveryStateOption("succeeded")).toBe(DeliveryState.SUCCEEDED);
    expect(deliveryStateOption("dead")).toBe(DeliveryState.DEAD);
    expect(deliveryStateOption(undefined)).toBe(DeliveryState.UNSPECIFIED);
    for (const name of ["pending", "succeeded", "dead"])
      expect(deliveryStateName(deliveryStateOption(name))).toBe(name);
  });

  it("refuses any other state, naming those it takes", () => {
    const refused = refusal(() => deliveryStateOption("failed"));
    expect(refused?.code).toBe("request.validation.failed");
    expect(refused?.message).toBe("--state: pending, succeeded or dead");
  });
});

describe("authctl webhooks update --enable and --disable", () => {
  it("enable, disable, or leave the webhook as it is", () => {
    expect(enabledOption({ enable: true })).toBe(true);
    expect(enabledOption({ disable: true })).toBe(false);
    expect(enabledOption({})).toBeUndefined();
  });

  it("are refused together", () => {
    expect(refusal(() => enabledOption({ enable: true, disable: true }))?.code).toBe(
      "request.validation.failed",
    );
  });
});

describe("authctl's repeatable options (--type, --delivery)", () => {
  it("keep every value, in the order given", () => {
    expect(collect("auth.login.failed", collect("auth.login.succeeded"))).toEqual([
      "auth.login.succeeded",
      "auth.login.failed",
    ]);
  });
});
