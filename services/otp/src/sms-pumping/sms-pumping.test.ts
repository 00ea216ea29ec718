import type { SmsMessage, SmsSender } from "@auth/delivery";
import type { AuthError } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { OtpPurpose, type SmsLimits } from "@auth/proto/otp";
import { metrics } from "@auth/telemetry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OtpHasher } from "../otp-codes.js";
import { designRules, Otps } from "../otps.js";
import { OtpStore } from "../store/otp-store.js";
import { smsPumpingLimitsOf } from "./limits.js";

/** Whose sends and checks these are: their events are security-events.test.ts's business. */
const bySystem = systemOrigin;
const hourSeconds = 3_600;

class RecordingSender implements SmsSender {
  sent: SmsMessage[] = [];
  async send(message: SmsMessage) {
    this.sent.push(message);
  }
  codeTo(phone: string): string {
    const text = this.sent.findLast((message) => message.to === phone)?.text ?? "";
    return /\d{6}/.exec(text)?.[0] ?? "";
  }
}

/** The i-th number of one prefix: +44 740 (GB), +33 612 (FR), +1 202 (US). */
const gb = (i: number) => `+447400${String(100_000 + i)}`;
const fr = (i: number) => `+33612${String(100_000 + i).slice(1)}`;
const us = (i: number) => `+1202555${String(1_000 + i)}`;

/** A company's SmsLimits: the defaults (zeros, no region listed) but for what is given. */
const limitsOf = (given: Partial<SmsLimits>): SmsLimits => ({
  allowedRegions: [],
  perRegionPerHour: 0,
  perCompanyPerHour: 0,
  breakerMinSent: 0,
  breakerMinEnteredPercent: 0,
  ...given,
});

/** The answer to a send: "sent", or the code and Retry-After of the refusal. */
const outcomeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "sent",
    (error: AuthError) => `${error.code} ${error.retryAfterSeconds ?? ""}`.trim(),
  );
const refusedCount = async (reason: string, region: string) =>
  (await metrics.smsRefused.get()).values.find(
    (value) => value.labels.reason === reason && value.labels.region === region,
  )?.value ?? 0;

/**
 * A company's limits against SMS pumping (docs/decisions.md, "SMS pumping"), through the service's
 * sends and checks, with each number a user of its own and each send a session of its own, so that
 * neither the user's nor the session's budget is what holds.
 */
describe.each(keyValueKinds())("Limits against SMS pumping on $name", (kind) => {
  let kv: KeyValueStore;
  let now: number;
  let sender: RecordingSender;
  let otps: Otps;
  let sequence = 0;

  beforeEach(async () => {
    now = Date.now();
    kv = await kind.open({ now: () => now });
    sender = new RecordingSender();
    otps = new Otps(new OtpStore(kv), new OtpHasher(Buffer.from("s".repeat(32))), designRules);
  });
  afterEach(async () => {
    await kv.close();
  });

  /** A code to `phone` for a new session of the phone's user, under the company's limits. */
  function send(phone: string, limits: Partial<SmsLimits> = {}, homeRegion = "US", sessionId?: string) {
    const session = sessionId ?? `s${++sequence}`;
    return otps.send(
      {
        companyId: "c1",
        userId: `user-${phone}`,
        sessionId: session,
        purpose: OtpPurpose.LOGIN,
        delivery: async () => ({
          phone,
          text: (otp: string) => `code ${otp}`,
          sender,
          limits: smsPumpingLimitsOf(limitsOf(limits), homeRegion),
        }),
      },
      bySystem,
    );
  }
  /** Sends a code to `phone` and enters it right. */
  async function sendAndEnter(phone: string, limits: Partial<SmsLimits> = {}) {
    const sessionId = `s${++sequence}`;
    await send(phone, limits, "US", sessionId);
    expect(await otps.verify("c1", sessionId, sender.codeTo(phone), () => bySystem)).toBe(true);
  }
  const sentTo = (phone: string) => sender.sent.filter((message) => message.to === phone).length;

  describe("regions allowed", () => {
    it("are the company's home region only by default", async () => {
      expect(await outcomeOf(send(us(1), {}, "US"))).toBe("sent");
      expect(await outcomeOf(send(gb(1), {}, "US"))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
      expect(await outcomeOf(send(gb(2), {}, "GB"))).toBe("sent");
      expect(sender.sent.map((message) => message.to)).toEqual([us(1), gb(2)]);
    });

    it("are those listed when the company lists any, its home region included only if listed", async () => {
      const limits = { allowedRegions: ["gb", "FR"] };
      expect(await outcomeOf(send(gb(1), limits, "US"))).toBe("sent");
      expect(await outcomeOf(send(fr(1), limits, "US"))).toBe("sent");
      expect(await outcomeOf(send(us(1), limits, "US"))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
      expect(sentTo(us(1))).toBe(0);
    });

    it("never include a number of no region (a non-geographic code such as +882)", async () => {
      expect(await outcomeOf(send("+8821234567890", { allowedRegions: ["US", "GB"] }))).toBe(
        `request.ratelimit.exceeded ${hourSeconds}`,
      );
      expect(sender.sent).toEqual([]);
    });

    it("count a refusal in auth_sms_refused_total by reason and region", async () => {
      const before = await refusedCount("region", "GB");
      await outcomeOf(send(gb(1), {}, "US"));
      expect(await refusedCount("region", "GB")).toBe(before + 1);
    });
  });

  describe("the breaker of a prefix", () => {
    it("opens once breaker_min_sent codes went to the prefix and none was entered: codes to the prefix stop for an hour, others go on", async () => {
      const limits = { allowedRegions: ["GB"], breakerMinSent: 5 };
      for (let i = 0; i < 5; i += 1) expect(await outcomeOf(send(gb(i), limits))).toBe("sent");
      expect(await outcomeOf(send(gb(5), limits))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
      expect(await outcomeOf(send(gb(6), limits))).toMatch(/^request\.ratelimit\.exceeded 3[56]\d\d$/);
      expect(await outcomeOf(send("+447911123456", { ...limits, allowedRegions: ["GG"] }))).toBe("sent");
      expect(sender.sent).toHaveLength(6);
    });

    it("opens with the defaults after 20 codes nobody entered", async () => {
      for (let i = 0; i < 20; i += 1) expect(await outcomeOf(send(us(i)))).toBe("sent");
      expect(await outcomeOf(send(us(20)))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
    });

    it("stays closed while the codes sent are entered right", async () => {
      const limits = { allowedRegions: ["GB"], breakerMinSent: 5 };
      for (let i = 0; i < 12; i += 1) await sendAndEnter(gb(i), limits);
      expect(sender.sent).toHaveLength(12);
    });

    it("opens when fewer than breaker_min_entered_percent of the codes were entered right, not at that share", async () => {
      const limits = { allowedRegions: ["GB", "FR"], breakerMinSent: 10, breakerMinEnteredPercent: 50 };
      for (let i = 0; i < 5; i += 1) await sendAndEnter(gb(i), limits);
      for (let i = 5; i < 10; i += 1) await send(gb(i), limits);
      expect(await outcomeOf(send(gb(10), limits))).toBe("sent");
      for (let i = 0; i < 4; i += 1) await sendAndEnter(fr(i), limits);
      for (let i = 4; i < 10; i += 1) await send(fr(i), limits);
      expect(await outcomeOf(send(fr(10), limits))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
    });
  });

  describe("the budgets of the hour", () => {
    it("a burst in parallel to many numbers of one region never delivers more than the region's budget", async () => {
      const limits = { allowedRegions: ["GB", "FR"], perRegionPerHour: 7 };
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => outcomeOf(send(gb(i), limits))),
      );
      expect(outcomes.filter((outcome) => outcome === "sent")).toHaveLength(7);
      expect(sender.sent).toHaveLength(7);
      expect(await outcomeOf(send(fr(0), limits))).toBe("sent");
    });

    it("a burst in parallel across regions never delivers more than the company's budget, nor any region's", async () => {
      const limits = { allowedRegions: ["GB", "FR", "US"], perRegionPerHour: 6, perCompanyPerHour: 15 };
      const numbers = Array.from({ length: 20 }, (_, i) => [gb(i), fr(i), us(i)]).flat();
      const outcomes = await Promise.all(numbers.map((phone) => outcomeOf(send(phone, limits))));
      expect(outcomes.filter((outcome) => outcome === "sent")).toHaveLength(15);
      expect(sender.sent).toHaveLength(15);
      for (const region of ["+44", "+33", "+1"]) {
        expect(sender.sent.filter((message) => message.to.startsWith(region)).length).toBeLessThanOrEqual(6);
      }
    });

    it("answer the rest of the hour as Retry-After, and count the refusal by the budget spent", async () => {
      const before = await refusedCount("region_budget", "US");
      const beforeCompany = await refusedCount("company_budget", "US");
      await send(us(0), { perRegionPerHour: 1 });
      const refused = await outcomeOf(send(us(1), { perRegionPerHour: 1 }));
      expect(refused).toMatch(/^request\.ratelimit\.exceeded 3[56]\d\d$/);
      expect(await refusedCount("region_budget", "US")).toBe(before + 1);
      await outcomeOf(send(us(2), { perCompanyPerHour: 1 }));
      expect(await refusedCount("company_budget", "US")).toBe(beforeCompany + 1);
    });

    // Only the in-process store keeps the test's time; Redis keeps its own.
    it.runIf(kind.name === "in-process")("are spent anew once their hour is over", async () => {
      const limits = { perRegionPerHour: 2 };
      await send(us(0), limits);
      await send(us(1), limits);
      expect(await outcomeOf(send(us(2), limits))).toMatch(/^request\.ratelimit\.exceeded/);
      now += hourSeconds * 1000;
      expect(await outcomeOf(send(us(2), limits))).toBe("sent");
    });
  });

  describe("a refused send", () => {
    it("spends none of the session's sends and ends its cooldown: the session sends as soon as the limit allows", async () => {
      const otpsOfOneSend = new Otps(new OtpStore(kv), new OtpHasher(Buffer.from("s".repeat(32))), {
        ...designRules,
        sendsPerSession: 1,
      });
      const sendOnce = (limits: Partial<SmsLimits>) =>
        otpsOfOneSend.send(
          {
            companyId: "c1",
            userId: "u-travelling",
            sessionId: "s-travelling",
            purpose: OtpPurpose.LOGIN,
            delivery: async () => ({
              phone: gb(0),
              text: (otp: string) => `code ${otp}`,
              sender,
              limits: smsPumpingLimitsOf(limitsOf(limits), "US"),
            }),
          },
          bySystem,
        );
      expect(await outcomeOf(sendOnce({}))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
      expect(await outcomeOf(sendOnce({}))).toBe(`request.ratelimit.exceeded ${hourSeconds}`);
      expect(await outcomeOf(sendOnce({ allowedRegions: ["GB"] }))).toBe("sent");
      expect(sentTo(gb(0))).toBe(1);
    });
  });
});
