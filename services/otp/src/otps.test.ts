import type { SmsMessage, SmsSender } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import { systemOrigin } from "@auth/events";
import type { KeyValueStore } from "@auth/kv";
import { keyValueKinds } from "@auth/kv/testing";
import { OtpPurpose } from "@auth/proto/otp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OtpHasher } from "./otp-codes.js";
import { designRules, type OtpRules, Otps } from "./otps.js";
import { smsPumpingLimitsOf } from "./sms-pumping/limits.js";
import { OtpStore } from "./store/otp-store.js";

/** Whose sends and checks these are: their events are security-events.test.ts's business. */
const bySystem = systemOrigin;

class RecordingSender implements SmsSender {
  sent: SmsMessage[] = [];
  failing = false;
  async send(message: SmsMessage) {
    if (this.failing) throw new AuthError("service.unavailable", { detail: "provider down" });
    this.sent.push(message);
  }
  lastOtp(): string {
    const text = this.sent.at(-1)?.text ?? "";
    return /\d{6}/.exec(text)?.[0] ?? "";
  }
}

const phone = "+12025550123";
/** The defaults of a company at home in the US, where the phone is. */
const limits = smsPumpingLimitsOf(undefined, "US");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: AuthError) => error.code,
  );

describe.each(keyValueKinds())("OTPs on $name", (kind) => {
  let kv: KeyValueStore;
  let sender: RecordingSender;
  let sequence = 0;
  let session: string;
  const user = () => `user-${session}`;
  const open = (rules: Partial<OtpRules> = {}) =>
    new Otps(new OtpStore(kv), new OtpHasher(Buffer.from("s".repeat(32))), { ...designRules, ...rules });
  const request = (otherSession = session) => ({
    companyId: "c1",
    userId: user(),
    sessionId: otherSession,
    purpose: OtpPurpose.LOGIN as const,
    delivery: async () => ({ phone, text: (otp: string) => `code ${otp}`, sender, limits }),
  });

  beforeEach(async () => {
    kv = await kind.open();
    sender = new RecordingSender();
    session = `s${++sequence}-${Date.now()}`;
  });
  afterEach(async () => {
    await kv.close();
  });

  describe("send", () => {
    it("sends six digits to the phone", async () => {
      await open().send(request(), bySystem);
      expect(sender.sent).toHaveLength(1);
      expect(sender.sent[0]?.to).toBe(phone);
      expect(sender.lastOtp()).toMatch(/^\d{6}$/);
    });

    it("keeps only a hash of the OTP", async () => {
      await open().send(request(), bySystem);
      expect(await kv.get(`otp:c1:${session}`)).not.toContain(sender.lastOtp());
    });

    it("refuses a second send within the cooldown with Retry-After", async () => {
      const otps = open();
      await otps.send(request(), bySystem);
      const error = (await otps.send(request(), bySystem).catch((e) => e)) as AuthError;
      expect(error.code).toBe("request.ratelimit.exceeded");
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(30);
    });

    it("asks for the delivery (where a recovery code spends a recovery message) only once its own limits allow the send, and sends nothing when it is refused", async () => {
      const otps = open();
      let asked = 0;
      let refuse = false;
      const delivery = async () => {
        asked += 1;
        if (refuse) throw new AuthError("request.ratelimit.exceeded", { retryAfterSeconds: 60 });
        return { phone, text: (otp: string) => `code ${otp}`, sender, limits };
      };
      expect(await otps.send({ ...request(), delivery }, bySystem)).toEqual({ phone });
      // Within the cooldown: refused before the delivery is asked for.
      expect(await codeOf(otps.send({ ...request(), delivery }, bySystem))).toBe(
        "request.ratelimit.exceeded",
      );
      expect(asked).toBe(1);
      refuse = true;
      expect(await codeOf(otps.send({ ...request(`${session}-other`), delivery }, bySystem))).toBe(
        "request.ratelimit.exceeded",
      );
      expect(asked).toBe(2);
      expect(sender.sent).toHaveLength(1);
      // A refused delivery starts no cooldown: the session may try again at once.
      refuse = false;
      expect(await codeOf(otps.send({ ...request(`${session}-other`), delivery }, bySystem))).toBe(
        "resolved",
      );
    });

    it("does not ask for the delivery beyond the per-user limit", async () => {
      const otps = open();
      let asked = 0;
      const delivery = async () => {
        asked += 1;
        return { phone, text: (otp: string) => `code ${otp}`, sender, limits };
      };
      const results = [];
      for (let i = 0; i < 12; i += 1)
        results.push(await codeOf(otps.send({ ...request(`${session}-${i}`), delivery }, bySystem)));
      expect(results).toEqual([
        ...Array(10).fill("resolved"),
        ...Array(2).fill("request.ratelimit.exceeded"),
      ]);
      expect(asked).toBe(10);
    });

    it("allows five sends per session, the first included", async () => {
      const otps = open({ cooldownMs: 1 });
      const results: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        results.push(await codeOf(otps.send(request(), bySystem)));
        await sleep(5);
      }
      expect(results).toEqual([...Array(5).fill("resolved"), "request.ratelimit.exceeded"]);
    });

    it("allows ten sends per user per hour across sessions", async () => {
      const otps = open();
      const results = [];
      for (let i = 0; i < 11; i += 1)
        results.push(await codeOf(otps.send(request(`${session}-${i}`), bySystem)));
      expect(results).toEqual([...Array(10).fill("resolved"), "request.ratelimit.exceeded"]);
    });

    it("never passes the per-user limit under a burst of parallel sends", async () => {
      const otps = open();
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => codeOf(otps.send(request(`${session}-${i}`), bySystem))),
      );
      expect(results.filter((r) => r === "resolved")).toHaveLength(10);
      expect(sender.sent).toHaveLength(10);
    });

    it("reports a failed delivery and does not start the cooldown", async () => {
      const otps = open();
      sender.failing = true;
      expect(await codeOf(otps.send(request(), bySystem))).toBe("service.unavailable");
      sender.failing = false;
      expect(await codeOf(otps.send(request(), bySystem))).toBe("resolved");
    });
  });

  describe("verify", () => {
    it("accepts the current OTP once", async () => {
      const otps = open();
      await otps.send(request(), bySystem);
      const otp = sender.lastOtp();
      expect(await otps.verify("c1", session, otp, () => bySystem)).toBe(true);
      expect(await otps.verify("c1", session, otp, () => bySystem)).toBe(false);
    });

    it("burns the OTP on a wrong guess, so the right one fails afterwards", async () => {
      const otps = open();
      await otps.send(request(), bySystem);
      const otp = sender.lastOtp();
      expect(await otps.verify("c1", session, otp === "000000" ? "111111" : "000000", () => bySystem)).toBe(
        false,
      );
      expect(await otps.verify("c1", session, otp, () => bySystem)).toBe(false);
    });

    it("replaces the earlier OTP on a resend", async () => {
      const otps = open({ cooldownMs: 1 });
      await otps.send(request(), bySystem);
      const first = sender.lastOtp();
      await sleep(5);
      await otps.send(request(), bySystem);
      const second = sender.lastOtp();
      expect(await otps.verify("c1", session, first === second ? "no match" : first, () => bySystem)).toBe(
        false,
      );
    });

    it("checks a code stored by the version before codes named their user (a bare hash)", async () => {
      const hasher = new OtpHasher(Buffer.from("s".repeat(32)));
      await kv.set(`otp:c1:${session}`, hasher.hash("123456"), 60_000);
      expect(await open().verify("c1", session, "123456", () => bySystem)).toBe(true);
      expect(await open().verify("c1", session, "123456", () => bySystem)).toBe(false);
    });

    it("refuses an expired OTP", async () => {
      const otps = open({ lifetimeMs: 50 });
      await otps.send(request(), bySystem);
      await sleep(80);
      expect(await otps.verify("c1", session, sender.lastOtp(), () => bySystem)).toBe(false);
    });

    it("refuses an OTP of another session", async () => {
      const otps = open();
      await otps.send(request(), bySystem);
      expect(await otps.verify("c1", `${session}-other`, sender.lastOtp(), () => bySystem)).toBe(false);
    });

    it("lets only one of many parallel right guesses through", async () => {
      const otps = open();
      await otps.send(request(), bySystem);
      const otp = sender.lastOtp();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => otps.verify("c1", session, otp, () => bySystem)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
});
